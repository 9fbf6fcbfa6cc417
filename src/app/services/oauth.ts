/** OAuth for connecting: where tokens live, and whether and how an authorization URL is opened. */
import { spawn } from 'node:child_process';
import { SmartError, errorText } from '../../process/errors.js';
import type { OAuthInteractive, OAuthOptions } from '../../core/connect/index.js';
import { splitCommandLine } from '../../core/config/shell-split.js';
import { oauthTokenStorePath } from '../../core/paths.js';
import type { Io } from '../../process/io.js';
import type { GlobalOptions } from './context.js';
import { resolvePaths } from './paths.js';

/** What OAuth needs of a run: the io edge and the global options it reads (a CommandContext satisfies it). */
export interface OAuthContext {
  io: Pick<Io, 'env' | 'platform' | 'stdinIsTTY' | 'stderrIsTTY' | 'stderr' | 'signal'>;
  global: Pick<GlobalOptions, 'authOpen' | 'timeoutMs'>;
}

/** Published client ID metadata document to use when a server supports them and none is configured. */
export const CLIENT_METADATA_URL_ENV = 'MCP_SMART_OAUTH_CLIENT_METADATA_URL';

/** The platform's URL opener, run without a shell (Windows: rundll32, since `start` is a cmd.exe built-in). */
function platformOpener(platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') return ['open'];
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return ['xdg-open'];
}

/** Why the default browser opener must not run here, or undefined when it may. */
export function browserRefusal(ctx: OAuthContext): string | undefined {
  const ci = ctx.io.env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false') return 'in CI (CI is set)';
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) return 'without a terminal';
  return undefined;
}

function spawnOpener(argv: string[], url: URL, flag: string): Promise<void> {
  const [command, ...args] = argv;
  if (!command) throw new SmartError('BAD_FLAG', { flag, value: '', hint: 'Give a program, or none.' });
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, url.href], { stdio: 'ignore', shell: false });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', (e) =>
      reject(
        new SmartError(
          'AUTH_FAILED',
          {
            reason: `could not start ${command} to open the authorization URL (${(e as NodeJS.ErrnoException).code ?? errorText(e)}); pass --auth-open none to print it instead`,
          },
          { cause: e },
        ),
      ),
    );
  });
}

/** A loopback host: `localhost`, 127.0.0.0/8 or [::1]. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The authorization URL comes from the server's metadata, so it is untrusted: only `https:` (and `http:` on
 * loopback) is shown or handed to an opener. `file:`, `smb:`, `ms-msdt:` and custom schemes would reach the
 * OS's protocol handlers.
 */
export function assertOpenableUrl(url: URL, server: string): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return;
  throw new SmartError('AUTH_FAILED', {
    reason: `${server}'s authorization endpoint is a ${url.protocol} URL; only https: (or http: on localhost) is opened. Ask the server's operator to fix its OAuth metadata`,
  });
}

/** How the authorization URL is shown: `--auth-open <command|none>`, else the platform opener where allowed. */
export function createOpener(ctx: OAuthContext, server: string): OAuthInteractive['open'] {
  const open = chooseOpener(ctx, server);
  return (url, name) => {
    assertOpenableUrl(url, name);
    return open(url, name);
  };
}

function chooseOpener(ctx: OAuthContext, server: string): OAuthInteractive['open'] {
  const value = ctx.global.authOpen;
  if (value === 'none') {
    return (url, name) => {
      ctx.io.stderr(`Open this URL in a browser to authorize ${name}:\n  ${url.href}\nWaiting for the redirect …\n`);
      return Promise.resolve();
    };
  }
  if (value !== undefined) {
    const argv = splitCommandLine(value, '--auth-open');
    return (url, name) => {
      ctx.io.stderr(`Authorizing ${name}: opening the authorization URL with ${argv[0] ?? value} …\n`);
      return spawnOpener(argv, url, '--auth-open');
    };
  }
  const refusal = browserRefusal(ctx);
  if (refusal) throw new SmartError('AUTH_NO_BROWSER', { why: refusal, server });
  const argv = platformOpener(ctx.io.platform);
  return (url, name) => {
    ctx.io.stderr(`Authorizing ${name} in your browser. If nothing opens, visit:\n  ${url.href}\n`);
    return spawnOpener(argv, url, '--auth-open');
  };
}

/**
 * OAuth options for connecting. Commands other than `login` authorize only when `--auth-open` was given
 * explicitly (that is the user asking); otherwise a server without valid tokens is reported as needing login.
 */
export function oauthOptions(ctx: OAuthContext, interactive?: OAuthInteractive): OAuthOptions {
  const clientMetadataUrl = ctx.io.env[CLIENT_METADATA_URL_ENV] || undefined;
  const explicit =
    interactive ??
    (ctx.global.authOpen !== undefined
      ? { open: createOpener(ctx, 'the server'), waitMs: ctx.global.timeoutMs }
      : undefined);
  return {
    storeFile: oauthTokenStorePath(resolvePaths(ctx.io, true).pathEnv),
    ...(explicit ? { interactive: explicit } : {}),
    ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    signal: ctx.io.signal,
  };
}
