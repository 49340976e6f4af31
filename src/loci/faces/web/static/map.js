// Zoom and pan for the view's map (an SVG of links): the wheel zooms about the pointer,
// a drag pans, the buttons zoom about the centre; hovering (or focusing) a dot shows its
// text beside it, within the map's frame.
(function () {
  "use strict";
  var svg = document.getElementById("map");
  if (!svg) { return; }
  var hover = document.getElementById("map-hover");
  var start = svg.viewBox.baseVal;
  var home = { x: start.x, y: start.y, w: start.width, h: start.height };
  var box = { x: home.x, y: home.y, w: home.w, h: home.h };
  var dragging = null;
  var moved = false;

  function show() {
    svg.setAttribute("viewBox", [box.x, box.y, box.w, box.h].join(" "));
    svg.dataset.zoom = (home.w / box.w).toFixed(3);
  }
  function zoom(factor, cx, cy) {
    var w = Math.min(home.w * 2, Math.max(home.w / 40, box.w / factor));
    var h = w * home.h / home.w;
    box.x = cx - (cx - box.x) * (w / box.w);
    box.y = cy - (cy - box.y) * (h / box.h);
    box.w = w; box.h = h;
    show();
  }
  function pointer(event) {
    var rect = svg.getBoundingClientRect();
    return {
      x: box.x + (event.clientX - rect.left) / rect.width * box.w,
      y: box.y + (event.clientY - rect.top) / rect.height * box.h
    };
  }
  svg.addEventListener("wheel", function (event) {
    event.preventDefault();
    var at = pointer(event);
    zoom(event.deltaY < 0 ? 1.25 : 0.8, at.x, at.y);
  }, { passive: false });
  svg.addEventListener("pointerdown", function (event) {
    dragging = { x: event.clientX, y: event.clientY, box: { x: box.x, y: box.y } };
    moved = false;
  });
  window.addEventListener("pointermove", function (event) {
    if (!dragging) { return; }
    var rect = svg.getBoundingClientRect();
    var dx = (event.clientX - dragging.x) / rect.width * box.w;
    var dy = (event.clientY - dragging.y) / rect.height * box.h;
    if (Math.abs(event.clientX - dragging.x) + Math.abs(event.clientY - dragging.y) > 4) {
      moved = true;
    }
    box.x = dragging.box.x - dx; box.y = dragging.box.y - dy;
    unlabel();
    show();
  });
  window.addEventListener("pointerup", function () { dragging = null; });
  svg.addEventListener("click", function (event) {
    if (moved) { event.preventDefault(); moved = false; }  // a drag is not a click on a dot
  }, true);
  document.querySelectorAll("[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      var how = button.dataset.zoom;
      if (how === "reset") { box = { x: home.x, y: home.y, w: home.w, h: home.h }; show(); return; }
      zoom(how === "in" ? 1.5 : 1 / 1.5, box.x + box.w / 2, box.y + box.h / 2);
    });
  });
  function label(dot) {
    // Beside the dot, on the side with more room; the script sets the position (no
    // inline style in the page: the policy forbids it).
    var frame = hover.parentElement.getBoundingClientRect();
    var at = dot.getBoundingClientRect();
    hover.textContent = dot.dataset.label;
    hover.hidden = false;
    var x = at.right - frame.left + 8;
    if (x + hover.offsetWidth > frame.width) { x = Math.max(0, at.left - frame.left - 8 - hover.offsetWidth); }
    var y = at.top - frame.top + at.height / 2 - hover.offsetHeight / 2;
    hover.style.left = x + "px";
    hover.style.top = Math.max(0, Math.min(frame.height - hover.offsetHeight, y)) + "px";
  }
  function unlabel() { hover.hidden = true; }
  svg.querySelectorAll("a.dot").forEach(function (dot) {
    dot.addEventListener("mouseenter", function () { label(dot); });
    dot.addEventListener("focus", function () { label(dot); });
    dot.addEventListener("mouseleave", unlabel);
    dot.addEventListener("blur", unlabel);
  });
  show();
  svg.dataset.ready = "1";
}());
