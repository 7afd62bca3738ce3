"""Unicode TAG characters (U+E0000–U+E007F, used to hide instructions in text) are shown as
markers like the other invisible characters, and escaped in JSON output."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from gate_tui.safe_text import is_safe, json_visible, json_visible_bytes, one_for_one, visible

TAGS = st.integers(0xE0000, 0xE007F).map(chr)


@given(st.text(max_size=20), TAGS, st.text(max_size=20))
def test_a_tag_character_is_never_shown_raw(before: str, tag: str, after: str) -> None:
    text = before + tag + after
    for shown in (visible(text), visible(text, one_line=True), one_for_one(text)):
        assert tag not in shown
    assert f"⟨U+{ord(tag):04X}⟩" in visible(text)
    assert not is_safe(text)
    assert len(one_for_one(text)) == len(text)


@given(st.text(max_size=20), TAGS)
def test_json_output_escapes_tags_and_keeps_the_value(prefix: str, tag: str) -> None:
    raw = json.dumps({"reply": prefix + tag}, ensure_ascii=False)
    for escaped in (
        json_visible(raw),
        json_visible_bytes(raw.encode("utf-8", "surrogatepass")).decode("utf-8", "surrogatepass"),
    ):
        assert tag not in escaped
        assert json.loads(escaped) == json.loads(raw)
