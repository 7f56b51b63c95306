/** Text made safe to put in HTML. */
export const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/**
 * A small server-rendered page for people who opened a link (OAuth callback, invitation, review): a title, a
 * sentence, and optionally markup already escaped by the caller.
 */
export const page = (title: string, body: string, markup = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escape(title)}</title></head>` +
  `<body style="font-family: system-ui; max-width: 40rem; margin: 4rem auto; padding: 0 1rem"><h1>${escape(title)}</h1>` +
  `<p>${escape(body)}</p>${markup}</body></html>`
