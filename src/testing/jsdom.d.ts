/** The one piece of jsdom the tests use directly (it ships no types): a window whose DOMParser reads XML. */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string)
    readonly window: { readonly DOMParser: typeof DOMParser }
  }
}
