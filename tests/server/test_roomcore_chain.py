"""The tamper-evident log in a room (issue 32), on the room core (fake clock, no
sockets): the chain in the room's order (chat lines between actions), who decided each
action (the player, a stand-in, a forfeit), the chain going on after a restart, and the
final ``room`` frame with the signed final hash."""

from __future__ import annotations

import dataclasses

from server.roomcore import messages as m
from server.store import chain, signing
from server.store.contract import ActionRow, ChatRow, EventRow
from server.store.signing import Signer
from tests.server.roomcore_harness import (
    ANA,
    PERUDO_BOT,
    STANDIN,
    Conn,
    Harness,
    Log,
    dudo_or_lowest,
    make_core,
    play_to_the_end,
    seated,
)

SIGNER = Signer.generate()


def checked(log: Log) -> None:
    """The log's chain holds and its end is signed by :data:`SIGNER`."""
    row = log.row
    assert row is not None and row.final_hash is not None and row.signature is not None
    assert chain.check(row, log.actions, log.events, log.chat) == ([], 0)
    assert row.key_id == SIGNER.key_id
    assert signing.verify(SIGNER.public, row.id, row.final_hash, row.signature)


def test_a_stand_in_s_moves_are_its_own_and_the_chain_holds_across_a_restart() -> None:
    h, (ana, bob) = seated("perudo")
    h.core.signer = SIGNER
    h.request(m.Say(ana, text="good luck"), at=0.5)
    mover = h.mover(ana, bob)
    h.request(m.Act(mover, action=h.legal(0 if mover is ana else 1)[0]), at=1.0)
    h.request(m.Say(bob, text="hm"), at=1.5)
    again = h.restart(at=2.0)  # the chain goes on from the stored last link
    again.core.signer = SIGNER
    ana, bob = Conn(ana.player), Conn(bob.player)
    again.request(m.Resume(ana, since=0), at=2.0)
    again.request(m.Resume(bob, since=0), at=2.0)
    again.feed(m.Detach(bob), at=3.0)
    again.run_until(13.0)  # past the grace period: a stand-in is sent for bob
    standin = Conn(STANDIN)
    assert again.request(m.Join(standin, ticket=again.launches()[-1].ticket), at=13.5)["seat"] == 1
    game = again.core.game
    assert game is not None
    while again.core.state == "playing":
        if game.to_move == 0:
            again.request(m.Act(ana, action=dudo_or_lowest(again.legal(0))), at=again.now + 0.5)
        else:  # (a stand-in's move is shown at its pace)
            again.ask(m.Act(standin, action=dudo_or_lowest(again.legal(1))), at=again.now + 0.5)
            again.run_until(again.now + 1.0)
    log = again.log
    by_seat = {(a.seat, a.by) for a in log.actions}
    assert (1, "standin") in by_seat and (0, "player") in by_seat
    assert all(a.by == "player" for a in log.actions if a.seat == 0)
    rows: list[ActionRow | EventRow | ChatRow] = [*log.actions, *log.events, *log.chat]
    positions = sorted(r.pos for r in rows if r.pos is not None)
    assert positions == list(range(1, len(positions) + 1))
    said, answered = (c.pos or 0 for c in log.chat)
    assert said < min(a.pos or 0 for a in log.actions) < answered  # (the room's order)
    checked(log)
    final = ana.last("room")
    row = log.row
    assert row is not None
    assert (final["final_hash"], final["signature"], final["key_id"]) == (
        row.final_hash,
        row.signature,
        SIGNER.key_id,
    )


def test_the_policy_s_moves_and_a_forfeit_are_not_the_player_s() -> None:
    h, (ana, bob) = seated("perudo")
    h.core.signer = SIGNER
    h.feed(m.Detach(bob), at=1.0)
    play_to_the_end(h, [ana, None])  # bob's seat moves on the room's timers (the policy)
    assert {a.by for a in h.log.actions if a.seat == 1} == {"standin"}
    checked(h.log)

    k, (_white, black) = seated("kriegspiel")
    k.core.signer = SIGNER
    k.feed(m.Detach(black), at=1.0)
    k.run_until(11.0)  # abandoned
    last = k.log.actions[-1]
    assert last.action.startswith("forfeit") and last.by == "timeout"
    assert all(a.by == "player" for a in k.log.actions[:-1])
    checked(k.log)


def test_a_room_of_a_game_logged_before_the_chain_stays_unchained() -> None:
    h, (ana, bob) = seated("perudo")
    assert h.log.row is not None
    h.log.row = dataclasses.replace(h.log.row, chained=False)  # (as migration 8 marks it)
    again = h.restart(at=1.0)
    ana, bob = Conn(ana.player), Conn(bob.player)
    again.request(m.Resume(ana, since=0), at=1.0)
    again.request(m.Resume(bob, since=0), at=1.0)
    play_to_the_end(again, [ana, bob])
    row = again.log.row
    assert row is not None and not row.chained and row.final_hash is None
    assert all(a.pos is None and a.hash is None for a in again.log.actions)


def test_a_house_bot_s_moves_are_the_house_s() -> None:
    h = Harness(make_core("perudo", {"seats": 2, "dice_per_player": 2}))
    h.core.signer = SIGNER
    ana, bot = Conn(ANA), Conn(PERUDO_BOT)
    h.request(m.Join(ana))
    h.request(m.AddBot(ana, bot=PERUDO_BOT, name="perudo-random"))
    h.request(m.Join(bot, ticket=h.launches()[-1].ticket))
    while h.core.state == "playing":
        seat = h.core.game.to_move if h.core.game is not None else None
        if seat == 0:
            h.request(m.Act(ana, action=dudo_or_lowest(h.legal(0))), at=h.now + 0.5)
        else:
            h.ask(m.Act(bot, action=dudo_or_lowest(h.legal(1))), at=h.now + 0.5)
            h.run_until(h.now + 1.0)
    assert {(a.seat, a.by) for a in h.log.actions} == {(0, "player"), (1, "house")}
    checked(h.log)
