//! Pictures of a board, for every game: a game draws its board as SVG, and this turns the
//! SVG into a PNG with resvg and one font bundled with the judge (DejaVu Sans,
//! assets/fonts/, free to redistribute), never the machine's fonts — so a PNG is the
//! same bytes on every machine.

use std::sync::{Arc, OnceLock};

/// The bundled font.
pub const FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");
/// The family name SVG text should ask for.
pub const FONT_FAMILY: &str = "DejaVu Sans";

fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Render an SVG picture as PNG, at its own size.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let opt = resvg::usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the picture: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("the picture has no size")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| format!("the picture: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_drawn_with_the_bundled_font_and_the_same_bytes_each_time() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#fff"/><text x="4" y="28" font-size="20" font-family="DejaVu Sans">C4 E7</text></svg>"##;
        let a = png(svg).expect("png");
        assert_eq!(a, png(svg).expect("png"));
        let blank = png(r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#fff"/></svg>"##).expect("png");
        assert_ne!(a, blank, "the text was drawn");
    }
}
