/** The seven principles of superred's security-domains guide, short, and how the designer helps with each. */
export const PRINCIPLES: ReadonlyArray<{ n: number; title: string; help: string }> = [
  {
    n: 1,
    title: 'Name a domain by the capability it grants, not by an attacker persona.',
    help: 'Checked: persona-like names get a note.',
  },
  {
    n: 2,
    title: 'A child is a strictly weaker capability: holding the parent grants it.',
    help: 'Drag a tag onto the capability that subsumes it.',
  },
  {
    n: 3,
    title: 'Read-only is a scope decision, not a tag.',
    help: 'Checked: *_readable tags get a note. Click a tag twice for read only.',
  },
  { n: 4, title: 'Separate knowledge from control.', help: 'Give "knows X" (model_identity) its own sibling tag.' },
  {
    n: 5,
    title: 'Independent channels are independent trees.',
    help: 'Checked for the user channel. Drop a tag on empty canvas to make it a root.',
  },
  {
    n: 6,
    title: 'Give each separately-compromisable data store its own leaf.',
    help: 'Group stores under a service node (workspace → workspace_inbox).',
  },
  { n: 7, title: 'A scope is an antichain.', help: 'Checked live: granting a tag and its ancestor is explained beside both.' },
]
