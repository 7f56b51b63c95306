import { assert, describe, it } from "@effect/vitest"
import * as LittleText from "../src/internal/littleText.ts"

describe("littleText", () => {
  it("escapes every reserved character with a backslash", () => {
    assert.strictEqual(
      LittleText.escape("\\ | { } @ [ ] ( ) < > * _ ~"),
      "\\\\ \\| \\{ \\} \\@ \\[ \\] \\( \\) \\< \\> \\* \\_ \\~"
    )
  })

  it("keeps hashtags clickable and escapes other #", () => {
    assert.strictEqual(LittleText.escape("#launch day"), "#launch day")
    assert.strictEqual(LittleText.escape("new #café\n#2026"), "new #café\n#2026")
    assert.strictEqual(LittleText.escape("C# and F#"), "C\\# and F\\#")
    assert.strictEqual(LittleText.escape("# heading"), "\\# heading")
    assert.strictEqual(LittleText.escape("(#tag)"), "\\(\\#tag\\)")
  })

  it("leaves plain text, emoji and other scripts alone", () => {
    const text = "Bonjour à tous 👋🏽 — 你好! 50% off, a+b=c, \"quoted\" 'single' $5 & more"
    assert.strictEqual(LittleText.escape(text), text)
  })

  it("reads escaped text back as it was written", () => {
    const texts = [
      "Launch (beta) [v2] {soon} <3 a*b_c~d|e\\f @team C# #launch",
      "trailing backslash \\",
      "#start (#mid) end#",
      ""
    ]
    for (const text of texts) assert.strictEqual(LittleText.read(LittleText.escape(text)), text)
  })

  it("cuts unescaped text at the first reserved character, as LinkedIn does", () => {
    assert.strictEqual(LittleText.read("Ship it (finally)"), "Ship it ")
    assert.strictEqual(LittleText.read("My #tag stays but @this cuts"), "My #tag stays but ")
  })
})
