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

/** Every key a touch on `element` may mean, innermost first: the stack or cell, a home, a gate, a badge's target. */
export function keysAt(element, root) {
  const keys = [];
  for (let node = element; node && node !== root; node = node.parentNode) {
    if (!node.getAttribute) continue;
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
  return element?.closest ? element.closest(PLACE) : null;
}

/** Make `element` a control: focusable, announced as a button with `label`, marked with `className`. */
export function makeControl(element, className, label, focusable) {
  element.classList.add(className);
  element.setAttribute('role', 'button');
  element.setAttribute('aria-label', label);
  if (focusable) element.setAttribute('tabindex', '0');
}
