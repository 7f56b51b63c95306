import { assert, describe, it } from "@effect/vitest"
import * as Html from "../src/internal/html.ts"

describe("Mastodon's HTML content", () => {
  it("reads as the text a person wrote: paragraphs, line breaks, shortened links whole, mentions, entities", () => {
    // As mastodon.social renders a status (https://docs.joinmastodon.org/spec/activitypub/#sanitization).
    const content = "<p>Hello <span class=\"h-card\"><a href=\"https://mastodon.social/@Gargron\" class=\"u-url mention\">@<span>Gargron</span></a></span> &amp; friends,<br />see " +
      "<a href=\"https://example.com/a/very/long/path/that/is/shortened\" rel=\"nofollow noopener\" target=\"_blank\">" +
      "<span class=\"invisible\">https://</span><span class=\"ellipsis\">example.com/a/very/long/path/th</span>" +
      "<span class=\"invisible\">at/is/shortened</span></a></p><p>It&#39;s &lt;fine&gt; <a href=\"https://mastodon.social/tags/news\" class=\"mention hashtag\">#<span>news</span></a></p>"
    assert.strictEqual(
      Html.toText(content),
      "Hello @Gargron & friends,\nsee https://example.com/a/very/long/path/that/is/shortened\n\nIt's <fine> #news"
    )
  })

  it("renders a text the way an instance does, and reads it back the same", () => {
    const text = "First & <second>\nline https://example.com/a-rather-long-address-that-gets-cut?x=1&y=2\n\nNew paragraph"
    const html = Html.toHtml(text)
    assert.include(html, "<p>First &amp; &lt;second&gt;<br />line <a href=")
    assert.strictEqual(Html.toText(html), text)
    assert.isTrue(Html.sameText(" a  b\n", "a b"))
    assert.isFalse(Html.sameText("a b", "a c"))
  })
})
