//! Snapshots of a Catan report (for a player and for the public) and of order
//! diagnostics: the house style, 78 columns, hidden hands.

use std::collections::BTreeMap;

use pbem_judge::catan::{Colour, Options, State, check_orders, new_game, play, report};

fn founded() -> State {
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = new_game("demo", &names, 7, &Options::default()).expect("game");
    let picks = [
        "13 road 13-18",
        "40 road 40-45",
        "26 road 26-32",
        "42 road 37-42",
    ];
    for _ in 0..8 {
        let who = s.players[s.actor() as usize].colour;
        let mine = picks[who.seat()];
        let second = [
            "29 road 23-29",
            "46 road 46-50",
            "10 road 10-15",
            "1 road 1-4",
        ][who.seat()];
        let file = format!("settlement {mine}\nsettlement {second}\n");
        s = play(&s, &BTreeMap::from([(who, file)])).state;
    }
    s
}

#[test]
fn a_turn_report_for_a_player_and_the_public() {
    let s = founded();
    let active = s.players[s.active as usize].colour;
    let files = BTreeMap::from([(
        active,
        "robber E\nbuild road 13-9 or build road 18-24\npass\n".to_string(),
    )]);
    let out = play(&s, &files);
    let mine = report(&s, &out.events, &out.state, Some(active));
    let public = report(&s, &out.events, &out.state, None);
    for l in mine.lines().chain(public.lines()) {
        assert!(l.chars().count() <= 78, "{l}");
    }
    insta::assert_snapshot!("catan_report_player", mine);
    insta::assert_snapshot!("catan_report_public", public);
}

#[test]
fn order_diagnostics() {
    let s = founded();
    let text = "player red\nturn 1\nbuidl city 13\nroad 13-99\nplay knight robber Z\noffer 2 wool for ore to bleu\nif rolled 13: end\n";
    let c = check_orders(&s, Colour::Red, "red.txt", text);
    insta::assert_snapshot!("catan_order_diagnostics", c.diagnostics.render());
}

/// `judge check` warns of a piece the rules refuse as the board stands (docs/catan.md,
/// "Building": "a road … on a free edge touching one's own road, settlement or city"),
/// but not of one an earlier line of the same file makes possible: a road beyond a road
/// the file builds first, a settlement at its end.
#[test]
fn check_warns_of_a_road_not_joined_unless_the_file_joins_it() {
    use pbem_judge::catan::rules::Refusal;
    let s = founded();
    let red = s.seat_of(Colour::Red).expect("red plays");
    let t = &s.board.topology;
    let mine = s.players[red as usize].road_ends;
    let (near, far) = (0..t.edges.len())
        .filter(|&e| s.road_place(red, e).is_ok())
        .find_map(|e| {
            let v = *t.edges[e].ends.iter().find(|&&v| !mine.has(v))?;
            let f = t.vertices[v]
                .edges
                .iter()
                .copied()
                .find(|&f| f != e && s.road_place(red, f) == Err(Refusal::NotConnected))?;
            Some((e, f))
        })
        .expect("a road two edges out");
    let warned = |text: &str| {
        check_orders(&s, Colour::Red, "red.txt", text)
            .diagnostics
            .items
            .iter()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    };
    let (n, f) = (s.edge_name(near), s.edge_name(far));
    let alone = warned(&format!("player red\nturn\nbuild road {f}\n"));
    assert_eq!(
        alone,
        vec![format!("road {f}: not connected to your roads")],
        "{alone:?}"
    );
    let joined = warned(&format!(
        "player red\nturn\nbuild road {n}\nbuild road {f}\n"
    ));
    assert!(joined.is_empty(), "{joined:?}");
}
