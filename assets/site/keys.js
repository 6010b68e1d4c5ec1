// The arrow keys go to the previous and next page, as the page's links say; nothing
// else. The pages read the same without this script.
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
    return;
  }
  // Not while writing in a field (the order writer's file).
  var t = event.target && event.target.tagName;
  if (t === "TEXTAREA" || t === "INPUT" || t === "SELECT") {
    return;
  }
  var rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  var link = rel && document.querySelector('link[rel="' + rel + '"]');
  if (link) {
    event.preventDefault();
    window.location.href = link.href;
  }
});
