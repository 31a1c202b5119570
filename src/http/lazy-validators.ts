import { AjvCompiler } from "@fastify/ajv-compiler";
import type { FastifySchemaCompiler, FastifySchemaValidationError, FastifyServerOptions } from "fastify";

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>["buildValidator"]
>;

/** A compiled validator as Fastify calls it: true or false, the errors of the last call on the function. */
type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * Fastify's own validator compiler (`@fastify/ajv-compiler`, what Fastify uses when given none),
 * compiling each route schema on the route's first request instead of when the route is added.
 * Compiled at start, the request schemas of every route (39, and again for each GET's HEAD route)
 * cost ≈ 1 MB of a fresh server's memory and ≈ 50 ms of its start, for routes a small server may
 * never see. A schema is compiled once, by the same Ajv with the same options; Fastify reads the
 * errors of a failed check from the function it was given (fastify/lib/validation.js
 * `validateParam`), so they are copied onto it after each call. test/http/route-schemas.test.ts
 * compiles every route's schemas, as the start used to.
 */
export function lazyValidators(): ValidatorFactory {
  const buildCompiler = AjvCompiler();
  const factory = (...args: Parameters<typeof buildCompiler>): FastifySchemaCompiler<unknown> => {
    const compile = buildCompiler(...args) as unknown as FastifySchemaCompiler<unknown>;
    return (route) => {
      let validate: Validate | undefined;
      const lazy: Validate = Object.assign(
        (data: unknown) => {
          validate ??= compile(route) as Validate;
          const valid = validate(data);
          lazy.errors = validate.errors;
          return valid;
        },
        { errors: null },
      );
      return lazy;
    };
  };
  // Fastify types the factory as ajv-compiler's (returning Ajv's own functions); any function of
  // this shape is a validator to it (Fastify's "Validation and Serialization" docs, validatorCompiler).
  return factory as unknown as ValidatorFactory;
}
