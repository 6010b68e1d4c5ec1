//! An HTML part of a mail as lines of text (block elements become lines, quotes `> `),
//! at a cost bounded by what the parser builds, not by the tags as written.
//!
//! A linear scan of the text ([`budget::html_shape`]) first refuses HTML that is plainly
//! too deep or has too many tags. That is not enough: the parser builds elements the
//! text does not spell out (a formatting element such as `<b>` is built again in every
//! paragraph it is left open over), and keeps open elements the scan takes as closed
//! (`<rt>` outside `<ruby>`, `<optgroup>` outside `<select>`, a `<div/>`, which HTML
//! does not close). So the parser is fed the text a little at a time, every element it
//! builds is counted, and it is stopped as soon as the mail's HTML has more elements
//! than [`budget::MAX_HTML_ELEMENTS`]; then the depth of the tree it built is measured
//! before anything else is done with it, since turning a tree into text takes time that
//! grows with the square of its depth.

use std::borrow::Cow;
use std::cell::Cell;
use std::rc::Rc;

use html2text::{Handle, RcDom};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, ExpandedName, QualName};

use super::budget;
use super::budget::ReadError;

/// How much text the parser is given at a time: between two looks at what it built, it
/// can build no more than a few dozen tags' worth.
const CHUNK: usize = 64;

/// The parser's tree, with a count of the elements built, which the reader of the mail
/// shares.
struct Counted {
    dom: RcDom,
    built: Rc<Cell<usize>>,
}

impl TreeSink for Counted {
    type Handle = Handle;
    type Output = RcDom;
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> RcDom {
        self.dom
    }
    // A hostile text can make millions of parse errors: none is kept.
    fn parse_error(&self, _msg: Cow<'static, str>) {}
    fn get_document(&self) -> Handle {
        self.dom.get_document()
    }
    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        self.dom.elem_name(target)
    }
    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        self.built.set(self.built.get() + 1);
        self.dom.create_element(name, attrs, flags)
    }
    fn create_comment(&self, text: StrTendril) -> Handle {
        self.dom.create_comment(text)
    }
    fn create_pi(&self, target: StrTendril, data: StrTendril) -> Handle {
        self.dom.create_pi(target, data)
    }
    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        self.dom.append(parent, child);
    }
    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        self.dom
            .append_based_on_parent_node(element, prev_element, child);
    }
    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.dom
            .append_doctype_to_document(name, public_id, system_id);
    }
    fn get_template_contents(&self, target: &Handle) -> Handle {
        self.dom.get_template_contents(target)
    }
    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        self.dom.same_node(x, y)
    }
    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.dom.set_quirks_mode(mode);
    }
    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        self.dom.append_before_sibling(sibling, new_node);
    }
    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.dom.add_attrs_if_missing(target, attrs);
    }
    fn remove_from_parent(&self, target: &Handle) {
        self.dom.remove_from_parent(target);
    }
    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        self.dom.reparent_children(node, new_parent);
    }
}

/// `html` as lines of text. `spent` counts the elements of the mail's HTML built so
/// far, in all its parts.
pub fn to_text(html: &str, spent: &mut usize) -> Result<String, ReadError> {
    let shape = budget::html_shape(html);
    if shape.depth > budget::MAX_HTML_DEPTH {
        return Err(ReadError::HtmlTooDeep(shape.depth));
    }
    if *spent + shape.elements > budget::MAX_HTML_ELEMENTS {
        return Err(ReadError::HtmlTooBig(*spent + shape.elements));
    }
    let dom = parse(html, spent)?;
    let depth = depth(&dom);
    if depth > budget::MAX_HTML_DEPTH {
        return Err(ReadError::HtmlTooDeep(depth));
    }
    unindent(&dom);
    let config = html2text::config::plain_no_decorate()
        .allow_width_overflow()
        .no_link_wrapping();
    Ok(config
        .dom_to_render_tree(&dom)
        .and_then(|tree| config.render_to_string(tree, 100_000))
        .unwrap_or_default())
}

/// Parse `html`, stopping once the mail's HTML has more elements than it may.
fn parse(html: &str, spent: &mut usize) -> Result<RcDom, ReadError> {
    let built = Rc::new(Cell::new(*spent));
    let sink = Counted {
        dom: RcDom::default(),
        built: Rc::clone(&built),
    };
    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut parser = html5ever::parse_document(sink, opts);
    let mut rest = html;
    while !rest.is_empty() {
        let mut end = rest.len().min(CHUNK);
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&rest[..end]));
        rest = &rest[end..];
        if built.get() > budget::MAX_HTML_ELEMENTS {
            return Err(ReadError::HtmlTooBig(built.get()));
        }
    }
    let dom = parser.finish();
    *spent = built.get();
    if *spent > budget::MAX_HTML_ELEMENTS {
        return Err(ReadError::HtmlTooBig(*spent));
    }
    Ok(dom)
}

/// Whether a `<blockquote>` is a reply's quote of another mail, not text the writer
/// indented with the editor's indent button. A reply's quote is
/// marked: `type="cite"` (Apple Mail, Thunderbird, most webmail), a class naming a quote
/// (Gmail's `gmail_quote`, Yahoo's `yahoo_quoted`, `protonmail_quote`), or the bar down
/// its left side (`border-left: 1px solid …`). The indent button writes none of these:
/// Gmail and Apple Mail write `style="margin: 0 0 0 40px; border: none; padding:
/// 0px"`, Outlook `style="margin-top: 0px; margin-bottom: 0px"`, Thunderbird a bare
/// `<blockquote>`.
fn is_reply_quote(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        let value = a.value.to_ascii_lowercase();
        match &*a.name.local {
            "type" => value.trim() == "cite",
            "class" => value.contains("quote"),
            "style" => value.split(';').any(|decl| {
                let Some((prop, val)) = decl.split_once(':') else {
                    return false;
                };
                let (prop, val) = (prop.trim(), val.trim());
                (prop == "border-left" || prop == "border" || prop == "border-left-style")
                    && !(val.is_empty()
                        || val.starts_with("none")
                        || val.starts_with('0')
                        || val.starts_with("hidden"))
            }),
            _ => false,
        }
    })
}

/// Every `<blockquote>` that is no reply's quote ([`is_reply_quote`]) made a `<div>`:
/// what the writer indented is read as their own text, not as a quote. One pass over
/// the tree, without recursion.
fn unindent(dom: &RcDom) {
    let mut indented = Vec::new();
    let mut stack = vec![dom.document.clone()];
    while let Some(node) = stack.pop() {
        if let html2text::Element { name, attrs, .. } = &node.data
            && &*name.local == "blockquote"
            && !is_reply_quote(&attrs.borrow())
        {
            indented.push(node.clone());
        }
        stack.extend(node.children.borrow().iter().cloned());
    }
    for old in indented {
        let div = dom.create_element(
            QualName::new(None, html5ever::ns!(html), html5ever::local_name!("div")),
            Vec::new(),
            ElementFlags::default(),
        );
        dom.reparent_children(&old, &div);
        dom.append_before_sibling(&old, NodeOrText::AppendNode(div));
        dom.remove_from_parent(&old);
    }
}

/// How deep the elements of a parsed document nest, walked without recursion.
fn depth(dom: &RcDom) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(dom.document.clone(), 0usize)];
    while let Some((node, depth)) = stack.pop() {
        let depth = depth + usize::from(matches!(node.data, html2text::Element { .. }));
        deepest = deepest.max(depth);
        stack.extend(node.children.borrow().iter().map(|c| (c.clone(), depth)));
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the scan takes as closed, the parser may keep open;
    /// the depth the parser built is what is refused.
    #[test]
    fn the_depth_the_parser_builds_is_what_counts() {
        for tag in ["<rt>", "<optgroup>", "<div/>", "<rp>"] {
            let html = tag.repeat(200);
            assert!(
                budget::html_shape(&html).depth <= budget::MAX_HTML_DEPTH,
                "{tag}: the scan lets it by"
            );
            let mut spent = 0;
            assert!(
                matches!(to_text(&html, &mut spent), Err(ReadError::HtmlTooDeep(d)) if d > 200),
                "{tag}"
            );
        }
        // What a mail program writes reads, and the elements are counted.
        let mut spent = 0;
        let text = to_text(
            "<div>game demo</div><div>move D1: C3</div><p>a<p>b<ul><li>x<li>y</ul>",
            &mut spent,
        )
        .expect("reads");
        assert!(text.contains("move D1: C3"), "{text}");
        assert!(spent >= 8, "{spent}");
    }

    /// Text indented with the editor's indent button (a
    /// `<blockquote>` with a margin, or bare) is the writer's own, read as it is; a
    /// reply's quote (`type="cite"`, `gmail_quote`, a bar down the left) stays a quote.
    #[test]
    fn the_indent_button_is_no_quote() {
        let read = |html: &str| to_text(html, &mut 0).expect("reads");
        for indent in [
            // Gmail
            r#"<blockquote style="margin:0 0 0 40px;border:none;padding:0px">"#,
            // Apple Mail
            r#"<blockquote style="margin: 0 0 0 40px; border: none; padding: 0px;">"#,
            // Outlook on the web
            r#"<blockquote style="margin-top: 0px; margin-bottom: 0px;">"#,
            // Thunderbird
            "<blockquote>",
        ] {
            let text = read(&format!(
                "<div dir=\"ltr\"><div>game demo</div>{indent}<div>move D1: C3</div><blockquote style=\"margin:0 0 0 40px;border:none;padding:0px\"><div>move D2: C4</div></blockquote></blockquote><div>end</div></div>"
            ));
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            assert!(lines.contains(&"move D1: C3"), "{indent}: {text:?}");
            assert!(lines.contains(&"move D2: C4"), "{indent}: {text:?}");
            assert!(!text.contains('>'), "{indent}: {text:?}");
        }
        for quote in [
            r#"<blockquote type="cite">"#,
            r#"<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">"#,
            r#"<blockquote style="border-left: 2px solid #1010FF; margin-left: 5px; padding-left: 5px;">"#,
        ] {
            let text = read(&format!(
                "<div>move D1: C3</div>{quote}<div>secret YOUR-SECRET</div></blockquote>"
            ));
            assert!(
                text.lines()
                    .any(|l| l.starts_with('>') && l.contains("secret YOUR-SECRET")),
                "{quote}: {text:?}"
            );
        }
    }

    /// A formatting element left open is built again in every
    /// paragraph after it, so 300 `<b>` and 300 `<p>` would make 90,000 elements (a
    /// stray `</x>` after each, which the parser ignores, keeps the scan's count of open
    /// elements at 0): the parser is stopped as soon as the mail's HTML passes the limit.
    #[test]
    fn elements_the_parser_makes_up_are_counted() {
        let html = (0..300)
            .map(|i| format!("<p><b id={i}></p></x>"))
            .collect::<String>()
            + &"<p>x".repeat(300);
        let scanned = budget::html_shape(&html);
        assert!(scanned.elements < budget::MAX_HTML_ELEMENTS);
        assert!(scanned.depth <= budget::MAX_HTML_DEPTH);
        let mut spent = 0;
        assert!(matches!(
            to_text(&html, &mut spent),
            Err(ReadError::HtmlTooBig(n)) if n > budget::MAX_HTML_ELEMENTS
        ));
        // The limit holds for a mail's parts together.
        let part = "<div>x</div>".repeat(2_000);
        let mut spent = 0;
        assert!(to_text(&part, &mut spent).is_ok());
        assert!(to_text(&part, &mut spent).is_ok());
        assert!(matches!(
            to_text(&part, &mut spent),
            Err(ReadError::HtmlTooBig(_))
        ));
    }
}
