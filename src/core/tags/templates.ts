import type { Forest } from './forest'

/** superred's chatbot forest, as the security-domains guide models it today (principle 3: no *_readable tags). */
export const CHATBOT_FOREST: Forest = {
  tags: [
    { name: 'system', parent: null, description: 'full control of the system side' },
    { name: 'system_prompt', parent: 'system', description: 'override the system prompt' },
    { name: 'model', parent: 'system', description: "rewrite the model's responses" },
    { name: 'model_identity', parent: 'system', description: 'know which model is in use' },
    { name: 'user', parent: null, description: 'send the user message and see the reply' },
  ],
}

const t = (name: string, parent: string | null, description: string) => ({ name, parent, description })

/** The AgentDojo forest of the guide, with `travel` as a leaf (351,974 distinct combinations). */
export const AGENTDOJO_FOREST: Forest = {
  tags: [
    t('system', null, 'full control of the system side'),
    t('system_prompt', 'system', 'override the system prompt'),
    t('tool_catalogue', 'system', 'change the tool catalogue'),
    t('tool_catalogue_add', 'tool_catalogue', 'add a tool to the catalogue'),
    t('tool_catalogue_edit', 'tool_catalogue', "edit a tool's description"),
    t('tool_catalogue_remove', 'tool_catalogue', 'remove a tool from the catalogue'),
    t('model_identity', 'system', 'know which model is in use'),
    t('detailed_system_specification', 'system', 'hold a leaked specification of the system'),
    t('agent_trace', 'system', "tamper with the agent's trace"),
    t('agent_trace_messages', 'agent_trace', 'rewrite messages in the agent trace'),
    t('user', null, 'send the user message'),
    t('tools', null, 'control every tool output'),
    t('banking', 'tools', 'control the banking service'),
    t('banking_bank_account', 'banking', 'write into the bank account data'),
    t('banking_filesystem', 'banking', "write into the banking user's files"),
    t('banking_user_account', 'banking', 'write into the user account data'),
    t('workspace', 'tools', 'control the workspace service'),
    t('workspace_inbox', 'workspace', 'send an email that lands in the inbox'),
    t('workspace_calendar', 'workspace', 'put an event in the calendar'),
    t('workspace_cloud_drive', 'workspace', 'put a file in the cloud drive'),
    t('slack', 'tools', 'control the Slack service'),
    t('slack_slack', 'slack', 'post in Slack channels'),
    t('slack_web', 'slack', 'control a web page the agent fetches'),
    t('travel', 'tools', 'control the travel service (hotels, flights, inbox and more)'),
  ],
}
