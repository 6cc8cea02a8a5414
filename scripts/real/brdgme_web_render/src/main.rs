//! Render game log bodies to HTML as brdgme's API server does for its web page.
//!
//! Reads one JSON object on standard input, `{"players": [{"name": "Mick", "color":
//! "Green"}, ...], "bodies": ["{{player 0}} played ...", ...]}`, and writes a JSON array
//! with the HTML of each body. The rendering is the API's `GameLog::render`
//! (brdgme/api `src/db/models.rs`): `markup::from_string`, `markup::transform` with the
//! game's players, `markup::html`. The colour names are the API's (`src/db/color.rs`),
//! mapped to brdgme_color's colours as its `Into<brdgme_color::Color>` does.
use brdgme_markup as markup;
use std::io::Read;

fn color(name: &str) -> brdgme_color::Color {
    match name {
        "Green" => brdgme_color::GREEN,
        "Red" => brdgme_color::RED,
        "Blue" => brdgme_color::BLUE,
        "Amber" => brdgme_color::AMBER,
        "Purple" => brdgme_color::PURPLE,
        "Brown" => brdgme_color::BROWN,
        "BlueGrey" => brdgme_color::BLUE_GREY,
        other => panic!("no such colour: {}", other),
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("reading standard input");
    let request: serde_json::Value = serde_json::from_str(&input).expect("a JSON request");
    let players: Vec<markup::Player> = request["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| markup::Player {
            name: p["name"].as_str().expect("a name").to_owned(),
            color: color(p["color"].as_str().expect("a colour")),
        })
        .collect();
    let html: Vec<String> = request["bodies"]
        .as_array()
        .expect("bodies")
        .iter()
        .map(|b| {
            let (parsed, _) = markup::from_string(b.as_str().expect("a body")).expect("markup");
            markup::html(&markup::transform(&parsed, &players))
        })
        .collect();
    println!("{}", serde_json::to_string(&html).expect("JSON"));
}
