import type { Forest } from '../../core/tags'

/**
 * The assistant's SecurityDomain, in the style of superred's security-domains
 * guide: capability names, a child is strictly weaker than its parent, one
 * leaf per data store, and independent channels (system, user, tools) are
 * separate roots.
 */
export const ASSISTANT_FOREST: Forest = {
  tags: [
    { name: 'system', parent: null, description: 'full control of the system side' },
    { name: 'system_prompt', parent: 'system', description: 'override the system prompt', references: ['LLM07', 'AML.T0056'] },
    {
      name: 'tool_catalogue',
      parent: 'system',
      description: 'edit the tool descriptions the assistant reads',
      references: ['LLM03', 'T2', 'AML.T0053'],
    },
    { name: 'model_identity', parent: 'system', description: 'know which model (policy) is in use' },
    {
      name: 'user',
      parent: null,
      description: "send the user's request and see the assistant's reply",
      references: ['LLM01', 'AML.T0051.000'],
    },
    { name: 'tools', parent: null, description: 'control every tool output', references: ['LLM01', 'AML.T0051.001', 'T6'] },
    { name: 'inbox', parent: 'tools', description: 'send an email that lands in the inbox' },
    { name: 'calendar', parent: 'tools', description: 'put an event in the calendar (an invitation)' },
    { name: 'drive', parent: 'tools', description: 'put a file in the cloud drive (a shared document)' },
    {
      name: 'bank_account',
      parent: 'tools',
      description: 'put a transaction in the bank account (a payment memo)',
      references: ['LLM06', 'T2'],
    },
  ],
}
