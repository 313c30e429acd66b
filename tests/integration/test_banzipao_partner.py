"""板子炮 through the real stack: four people bid nothing, the dealer calls a card, and no frame
sent to anyone — the dealer, the two others, a spectator, nor the partner's own view — names the
partner before the called card is played; every frame after it does. No frame shows a card of
another seat's hand meanwhile (the called card's code is public: its holder is not)."""

from __future__ import annotations

import httpx

from integration.harness import Stack, logged_states, new_table, play_watched
from integration.test_hidden_information import cards_in
from paiju.cards import card_codes
from paiju.games.banzipao import partner_of
from paiju.protocol import BidMade, CardCalled, HandEnded, Played


async def test_the_partner_stays_secret_until_the_called_card_is_played(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    for _ in range(3):  # a deal whose called card is played before the hand ends (1 in 300 not)
        table = await new_table(http, game="banzipao", variant="guizhou", players=4)
        spectator, seats = await play_watched(stack, http, table, 4)
        events, states = await logged_states(http, table)
        assert [e.bid for e in events if isinstance(e, BidMade)] == ["pass"] * 4  # test players
        called_at, call = next((i, e) for i, e in enumerate(events) if isinstance(e, CardCalled))
        shown_at = next(
            (i for i, e in enumerate(events) if isinstance(e, Played) and call.card in e.cards),
            None,
        )
        if shown_at is not None:
            break
        for sock in (spectator, *seats):
            await sock.close()
    assert shown_at is not None, "three deals in a row left the called card unplayed"
    ended = next(i for i, e in enumerate(events) if isinstance(e, HandEnded))
    partner = partner_of(states[called_at + 1])  # type: ignore[arg-type]
    assert partner is not None and partner != call.seat

    secret = shown = 0
    for who, sock in [(None, spectator), *enumerate(seats)]:
        for frame in sock.frames:
            if frame["type"] != "state" or not called_at < frame["index"] <= ended:
                continue
            index, view = frame["index"], frame["view"]
            state = states[index]
            if index <= shown_at:  # the state after events[index - 1]: the card not yet played
                assert view["partner"] is None, (who, index)
                assert view["called_card"] == card_codes([call.card])[0]
                secret += 1
            else:
                assert view["partner"] == partner, (who, index)
                shown += 1
            hidden = {c for s, h in enumerate(state.hands) if s != who for c in card_codes(h)}
            leaked = cards_in(frame) & (hidden - set(card_codes([call.card])))
            assert not leaked, (who, index, sorted(leaked))
        await sock.close()
    assert secret >= 5 and shown >= 5
