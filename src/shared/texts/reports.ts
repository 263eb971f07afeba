// Reports: definition refusals and the screen's words.
// One definition of each text; src/shared/texts.ts re-exports this file.

/** Reports (issue 17, docs/using/reports.md): refusals of a definition, and the screen's words. */
export const REPORT_TEXT = {
  notObject: 'A report must be a JSON object',
  collection: 'collection must be a collection path such as data/inspections',
  filter:
    'filter must be a list of {field, op, value} with op one of eq, ne, gt, gte, lt, lte, contains, exists, missing',
  groupBy: (max: number): string => `groupBy must be a list of at most ${max} field names`,
  aggregates: (max: number): string =>
    `aggregates must list 1 to ${max} of count, or sum, avg, min, max with a field`,
  sort: "sort must be {key, dir} with dir 'asc' or 'desc'",
  limit: 'limit must be a whole number above 0',
  view: 'view must be one of table, bar, line, pie',
  title: 'title must be text',
} as const
