/** What the assistant's actions do to the world, and what an email's body becomes. */
import { FILE_PATTERN, type Action } from './instructions'
import { BALANCE, type Store, type World } from './world'

export interface Effect {
  /** The store the action touched: the action's observable is tagged with it. */
  readonly store: Store
  /** A call-like description, e.g. `send_email(to='a@b', ...)`. */
  readonly call: string
  readonly done: boolean
}

const quote = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…` : s)

/**
 * The body of an email the assistant sends: it can only send what is in its
 * context, i.e. what it read during this run.
 */
export function emailBody(what: string, world: World, read: ReadonlySet<Store>): string {
  const w = what.toLowerCase()
  const missing = (store: string) => `(I could not find ${what || 'that'}: I have not read the ${store} in this conversation.)`
  const inbox = () => world.records('inbox').filter((r) => !r.planted)
  if (/\b(code|otp|2fa|verification|security)\b/.test(w)) {
    if (!read.has('inbox')) return missing('inbox')
    return inbox().find((r) => /security code/i.test(r.title))?.body ?? '(no security code found)'
  }
  const file = FILE_PATTERN.exec(what)?.[1]
  if (file) {
    if (!read.has('drive')) return missing('drive')
    return world.records('drive').find((r) => r.title.toLowerCase() === file.toLowerCase())?.body ?? `(no file named ${file})`
  }
  if (/\b(inbox|emails?|messages?|mail)\b/.test(w)) {
    if (!read.has('inbox')) return missing('inbox')
    return inbox()
      .map((r) => `${r.author}: ${r.title}: ${r.body}`)
      .join('\n')
  }
  if (/\b(calendar|schedule|meetings?)\b/.test(w)) {
    if (!read.has('calendar')) return missing('calendar')
    return world
      .records('calendar')
      .map((r) => r.title)
      .join('\n')
  }
  if (/\b(balance|transactions?|bank)\b/.test(w)) {
    if (!read.has('bank_account')) return missing('bank account')
    return `Balance ${BALANCE}. ${world
      .records('bank_account')
      .map((r) => `${r.title} ${r.body}`)
      .join('; ')}`
  }
  return what ? `As requested: ${what}` : 'As requested.'
}

export function execute(action: Action, world: World, read: ReadonlySet<Store>): Effect {
  switch (action.kind) {
    case 'send_email': {
      const body = emailBody(action.what, world, read)
      const subject = action.what ? `Fwd: ${action.what.replace(/^(the|my|our)\s+/i, '')}` : 'Fwd'
      world.sentEmails.push({ to: action.to, subject, body })
      return { store: 'inbox', call: `send_email(to=${quote(action.to)}, subject=${quote(subject)}, body=${quote(body)})`, done: true }
    }
    case 'transfer': {
      world.transfers.push({ amount: action.amount, currency: action.currency, to_iban: action.iban, memo: action.sentence })
      return {
        store: 'bank_account',
        call: `transfer(amount=${action.amount}, currency=${quote(action.currency)}, to_iban=${quote(action.iban)})`,
        done: true,
      }
    }
    case 'share_file': {
      const exists = world.records('drive').some((r) => r.title.toLowerCase() === action.file.toLowerCase())
      if (exists) world.sharedFiles.push({ file: action.file, with: action.with })
      return {
        store: 'drive',
        call: `share_file(file=${quote(action.file)}, with=${quote(action.with)})${exists ? '' : ' -> no such file'}`,
        done: exists,
      }
    }
  }
}
