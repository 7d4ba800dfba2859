// The board on the page: the SVG the web companion's renderer drew, with the member's movable pieces and, once
// one is chosen, the places it can go made touchable, focusable and announced. The SVG names what it shows with
// data- attributes (data-stack, data-cell, data-home with data-seat, data-entry, data-move with data-target).

const PLACE = '[data-stack],[data-cell],[data-home],[data-entry],[data-target]';

/** The SVG markup from the backend as a node of this document (parsed as XML: nothing in it runs). */
export function parseSvg(markup, doc = document) {
  const parsed = new DOMParser().parseFromString(markup, 'image/svg+xml');
  const svg = parsed.documentElement;
  if (svg.nodeName !== 'svg' || parsed.querySelector('parsererror')) return null;
  for (const script of svg.querySelectorAll('script,foreignObject')) script.remove();
  return doc.importNode(svg, true);
}

/** Every key a touch on `element` may mean, innermost first: a touch area's own, the stack or cell, a home, a
 * gate, a badge's target. */
export function keysAt(element, root) {
  const keys = [];
  for (let node = element; node && node !== root; node = node.parentNode) {
    if (!node.getAttribute) continue;
    const own = node.getAttribute('data-key');
    if (own !== null) keys.push(own);
    const target = node.getAttribute('data-target');
    const stack = node.getAttribute('data-stack');
    const cell = node.getAttribute('data-cell');
    const home = node.getAttribute('data-home') ?? node.getAttribute('data-entry');
    for (const key of [target, stack, cell, home === null ? null : `home-${home}`]) {
      if (key !== null && !keys.includes(key)) keys.push(key);
    }
  }
  return keys;
}

function css(value) {
  return String(value).replace(/["\\]/g, '\\$&');
}

/** The elements that show the place `key` as a piece to move (`seat`: the mover, for their slot at home). */
export function sourceElements(svg, key, seat) {
  if (key.startsWith('home-')) {
    const team = key.slice(5);
    const slot = svg.querySelector(`[data-home="${css(team)}"] [data-seat="${css(seat)}"]`);
    return slot ? [slot] : [...svg.querySelectorAll(`[data-home="${css(team)}"]`)];
  }
  return [...svg.querySelectorAll(`[data-stack="${css(key)}"]`)];
}

/** The elements that show the place `key` as where a move lands. */
export function targetElements(svg, key) {
  if (key.startsWith('home-')) return [...svg.querySelectorAll(`[data-entry="${css(key.slice(5))}"]`)];
  return [...svg.querySelectorAll(`[data-cell="${css(key)}"],[data-stack="${css(key)}"]`)];
}

export function closestPlace(element) {
  return element?.closest ? element.closest(`${PLACE},[data-key]`) : null;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const MARGIN = 4; // a touch area reaches a little past what it covers: fingers are wider than outlines

/** The layer of touch areas on top of the board, emptied. */
export function touchLayer(svg) {
  let layer = svg.querySelector('g.pl-layer');
  if (!layer) {
    layer = svg.ownerDocument.createElementNS(SVG_NS, 'g');
    layer.setAttribute('class', 'pl-layer');
    svg.append(layer);
  }
  layer.replaceChildren();
  return layer;
}

/**
 * A touch area over `elements` (a place of the board) on `layer`: a transparent rectangle on top of everything,
 * so a touch anywhere on the place counts (not only on its painted parts), announced as a button with `label`
 * and reachable with Tab. Returns it, or null when the board has no such place.
 */
export function touchArea(layer, elements, key, kind, label) {
  const boxes = elements.map((element) => element.getBBox()).filter((box) => box.width > 0 && box.height > 0);
  if (!boxes.length) return null;
  const x0 = Math.min(...boxes.map((box) => box.x)) - MARGIN;
  const y0 = Math.min(...boxes.map((box) => box.y)) - MARGIN;
  const x1 = Math.max(...boxes.map((box) => box.x + box.width)) + MARGIN;
  const y1 = Math.max(...boxes.map((box) => box.y + box.height)) + MARGIN;
  const area = layer.ownerDocument.createElementNS(SVG_NS, 'rect');
  for (const [name, value] of Object.entries({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 6 })) {
    area.setAttribute(name, String(value));
  }
  area.setAttribute('class', `pl-hit pl-hit-${kind}`);
  area.setAttribute('data-key', key);
  area.setAttribute('role', 'button');
  area.setAttribute('aria-label', label);
  area.setAttribute('tabindex', '0');
  layer.append(area);
  return area;
}
