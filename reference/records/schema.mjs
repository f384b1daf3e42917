// @ts-check
/** The records table, typed with Frictionless Table Schema. @type {import('./tableSchema.mjs').TableSchema} */
export const recordSchema = {
  fields: [
    { name: 'name', title: 'Name', type: 'string', constraints: { required: true, maxLength: 200 } },
    { name: 'email', title: 'Email', type: 'string', format: 'email', constraints: { required: true } },
    { name: 'company', title: 'Company', type: 'string', constraints: { maxLength: 200 } },
    { name: 'website', title: 'Website', type: 'string', format: 'uri' },
    { name: 'employees', title: 'Employees', type: 'integer', constraints: { minimum: 0 } },
    { name: 'country', title: 'Country', type: 'string', constraints: { pattern: '[A-Z]{2}' } },
    { name: 'since', title: 'Customer since', type: 'date' },
  ],
  missingValues: [''],
  primaryKey: 'email',
};
