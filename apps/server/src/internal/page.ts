const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/** A small server-rendered page for people who opened a link (OAuth callback, invitation): a title and a sentence. */
export const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
  `<body style="font-family: system-ui; max-width: 40rem; margin: 4rem auto"><h1>${escape(title)}</h1>` +
  `<p>${escape(body)}</p></body></html>`
