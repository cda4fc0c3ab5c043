/**
 * The one list of framework references redscope accepts on a tag, a claim and a claim task
 * (FOREST.json, the claim file, the designer's inspector, a target's manifest). Every id is
 * checked against this file; an id not here is refused by name, with where it appeared.
 *
 * Written from the published frameworks (no network at the time of writing): each framework
 * names its source and the date its list was taken. Only ids we are sure of are listed; a
 * framework marked `subset` lists part of its ids, and an id missing here is added here,
 * with its title, never accepted unchecked.
 */

export type FrameworkId = 'owasp-llm-2025' | 'owasp-agentic' | 'mitre-atlas' | 'nist-ai-rmf'

export interface Framework {
  readonly id: FrameworkId
  readonly title: string
  readonly source: string
  /** When the list below was taken from the source. */
  readonly taken: string
  /** True when only part of the framework's ids are listed. */
  readonly subset: boolean
  readonly entries: readonly (readonly [id: string, title: string])[]
}

export const FRAMEWORKS: readonly Framework[] = [
  {
    id: 'owasp-llm-2025',
    title: 'OWASP Top 10 for LLM Applications 2025',
    source: 'https://genai.owasp.org/llm-top-10/',
    taken: '2024-11-18 (version 2025, as published)',
    subset: false,
    entries: [
      ['LLM01', 'Prompt Injection'],
      ['LLM02', 'Sensitive Information Disclosure'],
      ['LLM03', 'Supply Chain'],
      ['LLM04', 'Data and Model Poisoning'],
      ['LLM05', 'Improper Output Handling'],
      ['LLM06', 'Excessive Agency'],
      ['LLM07', 'System Prompt Leakage'],
      ['LLM08', 'Vector and Embedding Weaknesses'],
      ['LLM09', 'Misinformation'],
      ['LLM10', 'Unbounded Consumption'],
    ],
  },
  {
    id: 'owasp-agentic',
    title: 'OWASP Agentic AI – Threats and Mitigations',
    source: 'https://genai.owasp.org/resource/agentic-ai-threats-and-mitigations/',
    taken: '2025-02-17 (version 1.0)',
    subset: false,
    entries: [
      ['T1', 'Memory Poisoning'],
      ['T2', 'Tool Misuse'],
      ['T3', 'Privilege Compromise'],
      ['T4', 'Resource Overload'],
      ['T5', 'Cascading Hallucination Attacks'],
      ['T6', 'Intent Breaking & Goal Manipulation'],
      ['T7', 'Misaligned & Deceptive Behaviors'],
      ['T8', 'Repudiation & Untraceability'],
      ['T9', 'Identity Spoofing & Impersonation'],
      ['T10', 'Overwhelming Human in the Loop'],
      ['T11', 'Unexpected RCE and Code Attacks'],
      ['T12', 'Agent Communication Poisoning'],
      ['T13', 'Rogue Agents in Multi-Agent Systems'],
      ['T14', 'Human Attacks on Multi-Agent Systems'],
      ['T15', 'Human Manipulation'],
    ],
  },
  {
    id: 'mitre-atlas',
    title: 'MITRE ATLAS techniques',
    source: 'https://atlas.mitre.org/techniques/',
    taken: '2024-10 (ATLAS data v4.x); a subset: the well-known techniques that LLM and agent red teaming meets',
    subset: true,
    entries: [
      ['AML.T0010', 'ML Supply Chain Compromise'],
      ['AML.T0015', 'Evade ML Model'],
      ['AML.T0018', 'Backdoor ML Model'],
      ['AML.T0020', 'Poison Training Data'],
      ['AML.T0024', 'Exfiltration via ML Inference API'],
      ['AML.T0024.000', 'Exfiltration via ML Inference API: Infer Training Data Membership'],
      ['AML.T0024.001', 'Exfiltration via ML Inference API: Invert ML Model'],
      ['AML.T0024.002', 'Exfiltration via ML Inference API: Extract ML Model'],
      ['AML.T0025', 'Exfiltration via Cyber Means'],
      ['AML.T0029', 'Denial of ML Service'],
      ['AML.T0034', 'Cost Harvesting'],
      ['AML.T0040', 'ML Model Inference API Access'],
      ['AML.T0043', 'Craft Adversarial Data'],
      ['AML.T0048', 'External Harms'],
      ['AML.T0051', 'LLM Prompt Injection'],
      ['AML.T0051.000', 'LLM Prompt Injection: Direct'],
      ['AML.T0051.001', 'LLM Prompt Injection: Indirect'],
      ['AML.T0053', 'LLM Plugin Compromise'],
      ['AML.T0054', 'LLM Jailbreak'],
      ['AML.T0056', 'LLM Meta Prompt Extraction'],
      ['AML.T0057', 'LLM Data Leakage'],
    ],
  },
  {
    id: 'nist-ai-rmf',
    title: 'NIST AI Risk Management Framework 1.0 (NIST AI 100-1)',
    source: 'https://doi.org/10.6028/NIST.AI.100-1',
    taken: '2023-01-26 (AI RMF 1.0); functions and categories in full, subcategories a subset',
    subset: true,
    entries: [
      ['GOVERN', 'Govern: a culture of risk management is cultivated and present'],
      ['GOVERN 1', 'Policies, processes, procedures and practices for AI risk are in place, transparent and implemented'],
      ['GOVERN 2', 'Accountability structures are in place'],
      ['GOVERN 3', 'Workforce diversity, equity, inclusion and accessibility are prioritized'],
      ['GOVERN 4', 'Teams are committed to a culture that considers and communicates AI risk'],
      ['GOVERN 5', 'Processes are in place for robust engagement with relevant AI actors'],
      ['GOVERN 6', 'Policies address AI risks from third-party software, data and the supply chain'],
      ['MAP', 'Map: context is recognized and risks related to context are identified'],
      ['MAP 1', 'Context is established and understood'],
      ['MAP 2', 'Categorization of the AI system is performed'],
      ['MAP 3', 'AI capabilities, targeted usage, goals, benefits and costs are understood'],
      ['MAP 4', 'Risks and benefits are mapped for all components, including third-party software and data'],
      ['MAP 5', 'Impacts to individuals, groups, communities, organizations and society are characterized'],
      ['MEASURE', 'Measure: identified risks are assessed, analyzed or tracked'],
      ['MEASURE 1', 'Appropriate methods and metrics are identified and applied'],
      ['MEASURE 2', 'AI systems are evaluated for trustworthy characteristics'],
      ['MEASURE 2.6', 'The AI system is evaluated regularly for safety risks'],
      ['MEASURE 2.7', 'AI system security and resilience are evaluated and documented'],
      ['MEASURE 2.10', 'Privacy risk of the AI system is examined and documented'],
      ['MEASURE 2.11', 'Fairness and bias are evaluated and results are documented'],
      ['MEASURE 3', 'Mechanisms for tracking identified AI risks over time are in place'],
      ['MEASURE 4', 'Feedback about efficacy of measurement is gathered and assessed'],
      ['MANAGE', 'Manage: risks are prioritized and acted upon based on projected impact'],
      ['MANAGE 1', 'AI risks from the MAP and MEASURE functions are prioritized, responded to and managed'],
      ['MANAGE 2', 'Strategies to maximize AI benefits and minimize negative impacts are planned and implemented'],
      ['MANAGE 3', 'AI risks and benefits from third-party entities are managed'],
      ['MANAGE 4', 'Risk treatments, response, recovery and communication plans are documented and monitored'],
    ],
  },
]

/** Where the list lives, for error messages: a person fixing an unknown id adds it here. */
export const FRAMEWORKS_FILE = 'src/core/compliance/frameworks.ts'
