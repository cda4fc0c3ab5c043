import { grammarSchema, unsupportedSchemaPart } from './jsonSchemaSubset'

describe('the JSON Schema keywords serve-llm can hold answers to', () => {
  it("accepts the judge's verdict schema and nested arrays, refs and unions", () => {
    expect(
      unsupportedSchemaPart({
        type: 'object',
        additionalProperties: false,
        required: ['a'],
        properties: {
          a: { type: ['string', 'null'], maxLength: 9 },
          b: { type: 'array', items: { $ref: '#/$defs/x' }, maxItems: 3 },
          c: { anyOf: [{ const: 1 }, { enum: ['x'] }] },
        },
        $defs: { x: { type: 'string', format: 'date' } },
      }),
    ).toBeNull()
  })

  it.each([
    [{ type: 'number', minimum: 0 }, ['minimum'], "'minimum' is a keyword"],
    [{ type: 'object', properties: { s: { type: 'string', pattern: '^a' } } }, ['properties', 's', 'pattern'], "'pattern' is a keyword"],
    [{ type: 'colour' }, ['type'], '"colour" is not a JSON Schema type'],
    [{ type: 'string', format: 'email' }, ['format'], 'format "email" cannot be held'],
    [{ oneOf: [{ type: 'string' }, { not: {} }] }, ['oneOf', 1, 'not'], "'not' is a keyword"],
    [{ type: 'array', items: 5 }, ['items'], 'a schema must be an object'],
  ])('refuses %j naming where', (schema, path, problem) => {
    const found = unsupportedSchemaPart(schema)
    expect(found?.path).toEqual(path)
    expect(found?.problem).toContain(problem)
  })

  it('a property named like a keyword is a name, not a keyword', () => {
    expect(unsupportedSchemaPart({ type: 'object', properties: { minimum: { type: 'number' }, type: { const: 'x' } } })).toBeNull()
    expect(grammarSchema({ title: 'T', properties: { anyOf: { anyOf: [{ type: 'null' }] } }, enum: [{ anyOf: 1 }] })).toEqual({
      properties: { anyOf: { oneOf: [{ type: 'null' }] } },
      enum: [{ anyOf: 1 }],
    })
  })
})
