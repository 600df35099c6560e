"""What a process keeps of each view's renderings, and which partial frames it can still make."""

from games.tables.frames import Rendering, Renderings

from .games import playout
from .test_partial_frames import board

VIEW = (1, ("visitor", False, False), None)


def rendering(state) -> Rendering:
    return Rendering.of(board(state, None), 0)


def test_only_the_newest_rendering_of_a_view_keeps_its_html():
    states = playout("gloom", "competitive", 2)[20:23]
    kept = Renderings()
    for state in states:
        kept.put(VIEW, ("t", state.version), rendering(state), state.version)
    older, newest = (kept.get(VIEW, ("t", s.version)) for s in (states[0], states[2]))
    assert older.html is None and older.parts, "an older one keeps only its part digests"
    assert newest.html is not None


def test_a_socket_one_version_behind_gets_a_partial_frame_and_an_unknown_one_none():
    a, b = playout("gloom", "competitive", 2)[30:32]
    kept = Renderings()
    kept.put(VIEW, ("t", a.version), rendering(a), a.version)
    kept.put(VIEW, ("t", b.version), rendering(b), b.version)
    frame = kept.frame(VIEW, ("t", b.version), ("t", a.version))
    assert frame is not None and 'id="kb-version"' in frame
    assert kept.frame(VIEW, ("t", b.version), ("t", -1)) is None
    assert kept.frame(VIEW, ("t", b.version), None) is None
    assert kept.frame(("other",), ("t", b.version), ("t", a.version)) is None


def test_the_sockets_that_showed_the_same_rendering_are_sent_one_frame_with_its_extra():
    a, b = playout("gloom", "competitive", 2)[30:32]
    kept = Renderings()
    kept.put(VIEW, ("t", a.version), rendering(a), a.version)
    kept.put(VIEW, ("t", b.version), rendering(b), b.version)
    watching = '<span id="spectator-count">3 watching</span>'
    first = kept.frame(VIEW, ("t", b.version), ("t", a.version), watching)
    assert first == kept.frame(VIEW, ("t", b.version), ("t", a.version)) + watching
    # A crowd of spectators: the same string for each, made once.
    assert kept.frame(VIEW, ("t", b.version), ("t", a.version), watching) is first


def test_a_lagging_socket_s_old_version_never_displaces_the_newest():
    a, b = playout("gloom", "competitive", 2)[40:42]
    kept = Renderings()
    kept.put(VIEW, ("t", b.version), rendering(b), b.version)
    kept.put(VIEW, ("t", a.version), rendering(a), a.version)
    assert kept.get(VIEW, ("t", a.version)) is None
    assert kept.get(VIEW, ("t", b.version)).html is not None


def test_an_older_rendering_holds_a_machine_word_per_part_not_a_dict_of_its_digests():
    import sys

    states = playout("gloom", "competitive", 2)[20:22]
    kept = Renderings()
    for state in states:
        kept.put(VIEW, ("t", state.version), rendering(state), state.version)
    older = kept.get(VIEW, ("t", states[0].version))
    parts = len(older.part_ids)
    assert parts > 30 and older.html is None
    # What it keeps of its own: the digests (8 bytes a part) and a tuple of the shared part ids.
    own = sys.getsizeof(older.digests) + sys.getsizeof(older.part_ids)
    assert own <= 16 * parts + 200, own
    assert older.parts == dict(zip(older.part_ids, older.digests, strict=True))


def test_every_rendering_of_a_table_s_views_shares_one_tuple_of_part_ids():
    # Every view of a table has the same parts at every version: its renderings (and the
    # board's skeletons) hold one tuple of their ids, not one each.
    states = playout("gloom", "competitive", 2)[20:23]
    made = [Rendering.of(board(state, viewer), 0) for state in states for viewer in (0, 1, None)]
    assert len({r.part_ids for r in made}) == 1
    assert len({id(r.part_ids) for r in made}) == 1
