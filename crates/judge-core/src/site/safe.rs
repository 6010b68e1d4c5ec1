//! A kept picture is inlined into the pages only if it is the plain drawing the judge
//! makes: shapes, text and titles, no script, link, foreign object or event handler.
//! Anything else (a file edited by hand, a picture from some other tool) is drawn again
//! from the game instead.

/// The elements and attributes the judge's pictures use, old and new.
const ELEMENTS: &[&str] = &[
    "svg", "title", "g", "rect", "polygon", "polyline", "line", "circle", "text",
];
const ATTRIBUTES: &[&str] = &[
    "width",
    "height",
    "viewBox",
    "font-family",
    "font-size",
    "font-weight",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "points",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "paint-order",
    "text-anchor",
    "dominant-baseline",
];

/// Is `svg` a picture made of the judge's shapes only?
pub fn is_plain_svg(svg: &str) -> bool {
    let Ok(doc) = roxmltree::Document::parse(svg) else {
        return false;
    };
    let root = doc.root_element();
    root.tag_name().name() == "svg"
        && root.descendants().all(|n| {
            if n.is_comment() || n.is_pi() {
                return false;
            }
            if !n.is_element() {
                return true;
            }
            let svg_ns = n
                .tag_name()
                .namespace()
                .is_none_or(|ns| ns == "http://www.w3.org/2000/svg");
            svg_ns
                && ELEMENTS.contains(&n.tag_name().name())
                && n.attributes()
                    .all(|a| a.namespace().is_none() && ATTRIBUTES.contains(&a.name()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judges_pictures_pass_and_anything_active_does_not() {
        let plain = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10" font-family="DejaVu Sans"><title>t &lt; u</title><rect width="10" height="10" fill="#ffffff"/><g><title>n</title><text x="1" y="2" font-size="9" fill="#212121">onload=x</text></g></svg>"##;
        assert!(is_plain_svg(plain));
        for bad in [
            r##"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"##,
            r##"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"##,
            r##"<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><text>x</text></a></svg>"##,
            r##"<svg xmlns="http://www.w3.org/2000/svg"><foreignObject/></svg>"##,
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink"><rect x:href="#a"/></svg>"##,
            r##"<html><svg/></html>"##,
            "not xml",
        ] {
            assert!(!is_plain_svg(bad), "{bad}");
        }
    }
}
