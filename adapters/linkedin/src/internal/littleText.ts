// LinkedIn's "little text format", in which the Posts API reads `commentary` and the Comments API reads
// `message.text`. Some characters are markup (mentions `@[Name](urn)`, templates `{hashtag|\#|tag}`) and
// must be backslash-escaped to be shown as typed; an unescaped one can silently cut the post short at that
// point. https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format

/** The characters little text reserves for its markup. */
const reserved: ReadonlySet<string> = new Set(["\\", "|", "{", "}", "@", "[", "]", "(", ")", "<", ">", "#", "*", "_", "~"])

const wordCharacter = /[\p{L}\p{N}]/u
const whitespace = /\s/u

/**
 * A `#` LinkedIn turns into a clickable hashtag: at the start or after whitespace, followed by a letter or
 * digit. Left unescaped so people's hashtags keep working; every other `#` (`C#`, `#1`... after a word) is
 * escaped.
 */
const startsHashtag = (characters: ReadonlyArray<string>, index: number): boolean => {
  const previous = characters[index - 1]
  const next = characters[index + 1]
  return (previous === undefined || whitespace.test(previous)) && next !== undefined && wordCharacter.test(next)
}

/** Plain text as little text that LinkedIn shows exactly as written (hashtags stay hashtags). */
export const escape = (text: string): string => {
  const characters = Array.from(text)
  return characters
    .map((character, index) =>
      reserved.has(character) && !(character === "#" && startsHashtag(characters, index)) ? `\\${character}` : character
    )
    .join("")
}

/**
 * What a reader of the post sees for some little text: escapes removed, hashtags kept, and the text cut at
 * the first other unescaped reserved character, the way LinkedIn truncates it. Mentions are not rendered
 * (Herald never sends them; `escape` neutralises any `@`).
 */
export const read = (littleText: string): string => {
  const characters = Array.from(littleText)
  let shown = ""
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!
    if (character === "\\" && index + 1 < characters.length) {
      shown += characters[++index]!
    } else if (character === "#" && startsHashtag(characters, index)) {
      shown += character
    } else if (reserved.has(character)) {
      return shown
    } else {
      shown += character
    }
  }
  return shown
}
