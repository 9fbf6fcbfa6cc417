/**
 * The server SDK's JSON Schema validator (ajv), loaded when it first validates something — an elicitation answer —
 * not at start. The SDK's `Server` makes an `AjvJsonSchemaValidator` unless it is given one, and its node shims
 * module imports ajv with it (~290 KB); serve passes this one instead, and the bundle (scripts/bundle.mjs) puts this
 * module in place of `@modelcontextprotocol/server/_shims`, so the start path does not compile ajv at all.
 */
import { createRequire } from 'node:module';
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';
import { LazyValidator } from '../core/connect/client-shims.js';

type AjvModule = { AjvJsonSchemaValidator: new () => jsonSchemaValidator };

/** The server SDK's ajv validator, from its CommonJS build, made when it first validates. */
export class LazyAjvValidator extends LazyValidator {
  constructor() {
    super(
      () =>
        new (
          createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv') as AjvModule
        ).AjvJsonSchemaValidator(),
    );
  }
}

// The two names the SDK's `_shims` module gives its own modules.
export { LazyAjvValidator as DefaultJsonSchemaValidator };
const nodeProcess = process;
export { nodeProcess as process };
