/**
 * The client SDK's `_shims` module as the bundle (scripts/bundle.mjs) resolves it: the same two names as the SDK's
 * Node shims, with ajv loaded on first use. The SDK's own shims import ajv (~95 modules) with the client; our only
 * Client is given a validator of its own (session-client.ts), so a command that connects to servers, and serve's
 * cold start, need not compile ajv at all. As serve/sdk-shims.ts does for the server SDK.
 */
import { createRequire } from 'node:module';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

type AjvModule = { AjvJsonSchemaValidator: new () => jsonSchemaValidator };

/** A JSON Schema validator made by `load` when it first validates (getValidator is synchronous: load requires). */
export class LazyValidator implements jsonSchemaValidator {
  private real?: jsonSchemaValidator;

  constructor(private readonly load: () => jsonSchemaValidator) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.real ??= this.load();
    return this.real.getValidator<T>(schema);
  }
}

/** The client SDK's ajv validator, from its CommonJS build, made on first use. */
export class LazyClientAjvValidator extends LazyValidator {
  constructor() {
    super(
      () =>
        new (
          createRequire(import.meta.url)('@modelcontextprotocol/client/validators/ajv') as AjvModule
        ).AjvJsonSchemaValidator(),
    );
  }
}

// The two names the SDK's `_shims` module gives its own modules: in Node a fetch TypeError is never CORS.
export { LazyClientAjvValidator as DefaultJsonSchemaValidator };
export const CORS_IS_POSSIBLE = false;
