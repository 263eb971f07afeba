/**
 * rjsf's validator over the console's schema check (src/shared/schema-validation.ts). The console's
 * Content-Security-Policy has no 'unsafe-eval', so @rjsf/validator-ajv8 (which compiles schemas to
 * functions) cannot run here; this adapter interprets the schema with the same engine as the Database
 * form, and every message is the one the server's 400 uses (SCHEMA_TEXT), so a field says the same
 * thing before sending and after.
 */
import {
  type CustomValidator,
  ErrorSchemaBuilder,
  type RJSFSchema,
  type RJSFValidationError,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils'
import { withoutBlankAnswers } from '../../../shared/forms'
import {
  fieldPath,
  interpretedIssues,
  issueMessage,
  type JsonSchema,
  toFieldErrors,
} from '../../../shared/schema-validation'

type Data = Record<string, unknown>

/** Blank strings are no answer, as on the server (withoutBlankAnswers): "   " when required is "Required". */
function answered(data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data ?? {}
  return withoutBlankAnswers(data as Data)
}

function issuesOf(schema: RJSFSchema, data: unknown) {
  try {
    return interpretedIssues(schema as JsonSchema, answered(data))
  } catch {
    // A schema the engine cannot read: the server, which checks every submission, stays the judge.
    return []
  }
}

export const consoleValidator: ValidatorType<Data, RJSFSchema> = {
  validateFormData(
    formData,
    schema,
    customValidate?: CustomValidator<Data, RJSFSchema>,
  ): ValidationData<Data> {
    const fields = toFieldErrors(issuesOf(schema, formData))
    const builder = new ErrorSchemaBuilder<Data>()
    const errors: RJSFValidationError[] = []
    for (const [path, message] of Object.entries(fields)) {
      const parts = path === '' ? [] : path.split('.')
      builder.addErrors(message, parts.length ? parts : undefined)
      const property = parts.length ? `.${parts.join('.')}` : '.'
      errors.push({ name: 'schema', property, message, stack: `${path || 'form'}: ${message}` })
    }
    let errorSchema = builder.ErrorSchema
    if (customValidate) {
      const extra = customValidate(formData, new ErrorSchemaBuilder<Data>().ErrorSchema as never, undefined)
      errorSchema = { ...errorSchema, ...(extra as object) }
    }
    return { errors, errorSchema }
  },
  isValid(schema, formData, rootSchema) {
    const withRoot = { ...(rootSchema as object), ...(schema as object) } as RJSFSchema
    return issuesOf(withRoot, formData).length === 0
  },
  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: Data) {
    const errors = issuesOf(schema, formData).map((i) => ({
      path: fieldPath(i.path),
      message: issueMessage(i),
    }))
    return { errors: errors as Result[] }
  },
}
