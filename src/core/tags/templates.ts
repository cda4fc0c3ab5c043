import type { Forest } from './forest'

/**
 * superred's chatbot forest, as the security-domains guide models it today (principle 3: no *_readable tags).
 * Mapped to frameworks (src/core/compliance/frameworks.ts): the user channel is where direct prompt injection
 * and jailbreaks come in; the system prompt is the asset that leaks; rewriting the model's responses models a
 * compromised model.
 */
export const CHATBOT_FOREST: Forest = {
  tags: [
    { name: 'system', parent: null, description: 'full control of the system side' },
    { name: 'system_prompt', parent: 'system', description: 'override the system prompt', references: ['LLM07', 'AML.T0056'] },
    { name: 'model', parent: 'system', description: "rewrite the model's responses", references: ['LLM04', 'AML.T0018'] },
    { name: 'model_identity', parent: 'system', description: 'know which model is in use' },
    {
      name: 'user',
      parent: null,
      description: 'send the user message and see the reply',
      references: ['LLM01', 'AML.T0051.000', 'AML.T0054'],
    },
  ],
}

const t = (name: string, parent: string | null, description: string, references?: string[]) => ({
  name,
  parent,
  description,
  ...(references ? { references } : {}),
})

/**
 * The AgentDojo forest of the guide, with `travel` as a leaf (351,974 distinct combinations). Mapped: tool outputs
 * are indirect prompt injection (goal manipulation of an agent), the catalogue is the supply chain and tool misuse,
 * the services are what excessive agency and data leakage reach.
 */
export const AGENTDOJO_FOREST: Forest = {
  tags: [
    t('system', null, 'full control of the system side'),
    t('system_prompt', 'system', 'override the system prompt', ['LLM07', 'AML.T0056']),
    t('tool_catalogue', 'system', 'change the tool catalogue', ['LLM03', 'T2', 'AML.T0053']),
    t('tool_catalogue_add', 'tool_catalogue', 'add a tool to the catalogue'),
    t('tool_catalogue_edit', 'tool_catalogue', "edit a tool's description"),
    t('tool_catalogue_remove', 'tool_catalogue', 'remove a tool from the catalogue'),
    t('model_identity', 'system', 'know which model is in use'),
    t('detailed_system_specification', 'system', 'hold a leaked specification of the system', ['LLM07']),
    t('agent_trace', 'system', "tamper with the agent's trace", ['T1', 'T8']),
    t('agent_trace_messages', 'agent_trace', 'rewrite messages in the agent trace'),
    t('user', null, 'send the user message', ['LLM01', 'AML.T0051.000', 'AML.T0054']),
    t('tools', null, 'control every tool output', ['LLM01', 'AML.T0051.001', 'T6']),
    t('banking', 'tools', 'control the banking service', ['LLM06', 'T2']),
    t('banking_bank_account', 'banking', 'write into the bank account data'),
    t('banking_filesystem', 'banking', "write into the banking user's files"),
    t('banking_user_account', 'banking', 'write into the user account data'),
    t('workspace', 'tools', 'control the workspace service', ['LLM02', 'AML.T0057']),
    t('workspace_inbox', 'workspace', 'send an email that lands in the inbox'),
    t('workspace_calendar', 'workspace', 'put an event in the calendar'),
    t('workspace_cloud_drive', 'workspace', 'put a file in the cloud drive'),
    t('slack', 'tools', 'control the Slack service', ['LLM02']),
    t('slack_slack', 'slack', 'post in Slack channels'),
    t('slack_web', 'slack', 'control a web page the agent fetches'),
    t('travel', 'tools', 'control the travel service (hotels, flights, inbox and more)'),
  ],
}
