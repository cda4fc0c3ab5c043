import { AGENTDOJO_FOREST, CHATBOT_FOREST, distinctCombinations, buildDomain } from '../core/tags'
import { forestToPython, variableNames } from './pythonExport'
import { docstringTitle, parseSecurityTags, PythonImportError, workspaceNameFor } from './pythonTags'

const failure = (source: string): PythonImportError => {
  try {
    parseSecurityTags(source)
  } catch (e) {
    if (e instanceof PythonImportError) return e
    throw e
  }
  throw new Error('expected the import to fail')
}

describe('parseSecurityTags', () => {
  it('reads the guide chatbot module, in SecurityDomain order', () => {
    const { forest, notes } = parseSecurityTags(`
from superred.core.types.security_domain import SecurityDomain, SecurityDomainTag

SYSTEM_TAG         = SecurityDomainTag("system")
SYSTEM_PROMPT_TAG  = SecurityDomainTag("system_prompt", parent=SYSTEM_TAG)  # override the system prompt
MODEL_TAG          = SecurityDomainTag("model", parent=SYSTEM_TAG)
MODEL_IDENTITY_TAG = SecurityDomainTag("model_identity", parent=SYSTEM_TAG)
USER_TAG           = SecurityDomainTag("user")   # independent root
domain = SecurityDomain([SYSTEM_TAG, SYSTEM_PROMPT_TAG, MODEL_TAG, MODEL_IDENTITY_TAG, USER_TAG])
`)
    expect(forest.tags.map((t) => [t.name, t.parent])).toEqual([
      ['system', null],
      ['system_prompt', 'system'],
      ['model', 'system'],
      ['model_identity', 'system'],
      ['user', null],
    ])
    expect(forest.tags[1].description).toBe('override the system prompt')
    expect(notes).toEqual([])
  })

  it('reads the shipped-target style: annotations, wrapped calls, attribute docstrings, keyword and single quotes', () => {
    const { forest } = parseSecurityTags(`"""Module docstring."""
SYSTEM_TAG: SecurityDomainTag = SecurityDomainTag("system")
"""Root of the system tree. An attacker with \`\`system\`\` holds every
system-side capability below it."""

TOOL_CATALOGUE_ADD_TAG: SecurityDomainTag = sd.SecurityDomainTag(
    name='tool_' "catalogue_add", parent=SYSTEM_TAG,
)
DOMAIN: SecurityDomain = SecurityDomain(
    [
        # system tree
        TOOL_CATALOGUE_ADD_TAG,
        SYSTEM_TAG,
    ]
)
"""The full forest."""
`)
    expect(forest.tags).toEqual([
      { name: 'tool_catalogue_add', parent: 'system', description: '' },
      {
        name: 'system',
        parent: null,
        description: 'Root of the system tree. An attacker with ``system`` holds every system-side capability below it.',
      },
    ])
  })

  it('uses every tag in order when there is no SecurityDomain, and says so; notes tags left out', () => {
    expect(parseSecurityTags('A = SecurityDomainTag("a")\nB = SecurityDomainTag("b", A)\n').notes[0]).toMatch(/No SecurityDomain/)
    const r = parseSecurityTags('A = SecurityDomainTag("a")\nB = SecurityDomainTag("b")\nD = SecurityDomain([A])\n')
    expect(r.forest.tags.map((t) => t.name)).toEqual(['a'])
    expect(r.notes[0]).toBe('Not in SecurityDomain([...]), so left out as superred would: b (line 2).')
  })

  it('accepts a list assigned to a name first', () => {
    const r = parseSecurityTags('A = SecurityDomainTag("a")\nALL = [A]\nD = SecurityDomain(tags=ALL)\n')
    expect(r.forest.tags.map((t) => t.name)).toEqual(['a'])
  })

  it.each([
    ['A = SecurityDomainTag("a", parent=B)\n', 1, 'parent=B is not a tag assigned above this line (Python would raise NameError)'],
    [
      'A = SecurityDomainTag("a")\n\nB = SecurityDomainTag(f"x{A}")\n',
      3,
      'the tag name must be a plain string (an f-string or bytes is computed at run time)',
    ],
    [
      'A = SecurityDomainTag("a")\nTAGS = {k: SecurityDomainTag(k, parent=A) for k in ("x", "y")}\n',
      2,
      'this SecurityDomainTag is built inside an expression',
    ],
    [
      'A = SecurityDomainTag("a")\nD = SecurityDomain([\n    A,\n    *TAGS.values(),\n])\n',
      4,
      '*TAGS.values() is computed when Python runs',
    ],
    ['A = SecurityDomainTag("a")\nB = SecurityDomainTag("a")\nD = SecurityDomain([A, B])\n', 2, "Duplicate tag name: 'a'"],
    [
      'A = SecurityDomainTag("a")\nB = SecurityDomainTag("b", parent=A)\nD = SecurityDomain([B])\n',
      3,
      "Tag 'b' has parent 'a' which is not in the domain",
    ],
    ['A = SecurityDomainTag("a")\nD = SecurityDomain([A, C])\n', 2, 'C is not a tag assigned above'],
    ['A = SecurityDomainTag("a"\nB = 1\n', 1, 'a bracket opened here is never closed'],
    ['A = SecurityDomainTag("a)\n', 1, 'a string runs past the end of its line'],
    ['x = 1\n', 1, 'no tag assignments found'],
  ])('refuses %j naming line %i', (source, line, message) => {
    const e = failure(source)
    expect(e.line).toBe(line)
    expect(e.message).toContain(`line ${line}: `)
    expect(e.message).toContain(message)
  })
})

describe('forestToPython', () => {
  it("round-trips the guide forests exactly, descriptions and order included (framework references are not superred's: left out)", () => {
    for (const forest of [CHATBOT_FOREST, AGENTDOJO_FOREST]) {
      const { forest: back, notes } = parseSecurityTags(forestToPython(forest, 'Test'))
      expect(back).toEqual({ tags: forest.tags.map((t) => ({ name: t.name, parent: t.parent, description: t.description })) })
      expect(notes).toEqual([])
    }
  })

  it("names the workspace from the module docstring (redscope's own export round-trips its name), else the file name", () => {
    expect(parseSecurityTags(forestToPython(CHATBOT_FOREST, 'Acme help bot')).title).toBe('Acme help bot')
    const own = parseSecurityTags('"""Travel agent tools.\n\nLonger text."""\nA = SecurityDomainTag("a")\n')
    expect(own.title).toBe('Travel agent tools')
    expect(workspaceNameFor(own, 'security_tags.py')).toBe('Travel agent tools')
    const bare = parseSecurityTags('A = SecurityDomainTag("a")\n')
    expect(bare.title).toBeNull()
    expect(workspaceNameFor(bare, 'agentdojo_tags.py')).toBe('agentdojo_tags')
    expect(docstringTitle('x'.repeat(200))!.length).toBe(80)
    expect(docstringTitle('   ')).toBeNull()
  })

  it('writes the shipped style: docstring with principles and trees, typed assignments, DOMAIN and __all__', () => {
    const py = forestToPython(CHATBOT_FOREST, 'Chatbot')
    expect(py.startsWith('"""Chatbot: a superred SecurityDomain forest.')).toBe(true)
    expect(py).toContain('1. Each tag names a capability an attacker can be granted')
    expect(py).toContain('7. A scope is an antichain')
    expect(py).toContain('    ├── system_prompt')
    expect(py).toContain(
      'SYSTEM_PROMPT_TAG: SecurityDomainTag = SecurityDomainTag("system_prompt", parent=SYSTEM_TAG)\n"""override the system prompt"""',
    )
    expect(py).toContain('# Tree 2: user')
    expect(py).toContain('DOMAIN: SecurityDomain = SecurityDomain(\n    [\n        SYSTEM_TAG,')
    expect(py.split('\n').every((l) => l.length <= 99)).toBe(true)
  })

  it('survives hostile names and descriptions', () => {
    const forest = {
      tags: [
        { name: 'a"b\\c', parent: null, description: 'ends with a quote "' },
        { name: '9 lives', parent: 'a"b\\c', description: 'has """ triple quotes and \\ backslash' },
        { name: 'x'.repeat(120), parent: null, description: '' },
      ],
    }
    const back = parseSecurityTags(forestToPython(forest)).forest
    expect(back).toEqual(forest)
    expect(distinctCombinations(buildDomain(back))).toHaveLength(6)
  })

  it('names variables as valid unique identifiers', () => {
    expect([...variableNames(['user', 'User', 'tools.slack', '9x', '']).values()]).toEqual([
      'USER_TAG',
      'USER_2_TAG',
      'TOOLS_SLACK_TAG',
      'T_9X_TAG',
      'UNNAMED_TAG',
    ])
  })
})
