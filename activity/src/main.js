// The Activity's page: signs the member in (signin.js), shows the channel's live game and lets the member to move
// play it by touching the board (picker.js, board.js) or with the keyboard. Everything it shows comes from the
// backend in the member's language; texts are always inserted as text, never as markup.

import { DiscordSDK } from '@discord/embedded-app-sdk';
import { Api, Refusal, apiBase, follow } from './api.js';
import { closestPlace, keysAt, parseSvg, sourceElements, targetElements, touchArea, touchLayer } from './board.js';
import { Picker } from './picker.js';
import { signIn } from './signin.js';

const $ = (id) => document.getElementById(id);
const boot = JSON.parse($('boot').textContent);
let texts = boot.texts;
const api = new Api(apiBase(window.location));
let sdk = null;
let view = null;
let picker = new Picker([]);
let playing = false;
let renewTimer = null;
let live = null;

function say(id, text) {
  const element = $(id);
  element.textContent = text ?? '';
  element.hidden = !text;
}

function showError(message) {
  say('error', message);
}

async function start() {
  say('turn', texts.signing_in);
  try {
    sdk = new DiscordSDK(boot.client_id);
  } catch (error) {
    // Opened outside Discord (no frame_id): nothing to sign in with.
    say('turn', texts.no_game);
    showError(String(error.message ?? error));
    return;
  }
  await session();
}

async function session() {
  try {
    const signed = await signIn(sdk, api, boot.client_id);
    texts = signed.texts;
    document.documentElement.lang = signed.lang;
    scheduleRenewal(signed.expires_in, signed.renew_before);
    showError(null);
    if (signed.game) show(signed.game);
    watch();
  } catch (error) {
    $('app').setAttribute('aria-busy', 'false');
    say('turn', null);
    if (error instanceof Refusal) {
      showError(error.message);
      if (error.status >= 500) setTimeout(session, 5000); // Discord or the bot will answer again
    } else if (error instanceof TypeError) {
      showError(texts.offline); // no answer at all (the network): try again
      setTimeout(session, 5000);
    } else {
      showError(texts.authorize); // the member closed Discord's authorize prompt: never ask again unbidden
    }
  }
}

function scheduleRenewal(expiresIn, renewBefore) {
  clearTimeout(renewTimer);
  renewTimer = setTimeout(renew, Math.max(5, expiresIn - renewBefore) * 1000);
}

async function renew() {
  try {
    const fresh = await api.post(api.route + 'renew');
    api.ticket = fresh.ticket;
    scheduleRenewal(fresh.expires_in, Math.min(300, fresh.expires_in / 3));
  } catch (error) {
    if (error instanceof Refusal && error.status === 401) {
      live?.abort();
      await session(); // the ticket ran out (a sleeping phone): sign in again, silently
    } else {
      renewTimer = setTimeout(renew, 10000);
    }
  }
}

async function watch() {
  live?.abort();
  const controller = new AbortController();
  live = controller;
  let delay = 1000;
  while (live === controller) {
    try {
      await follow(api, (name, data) => {
        delay = 1000;
        if (name === 'game') {
          showError(null);
          show(JSON.parse(data));
        }
      }, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof Refusal && error.status === 401) {
        await session();
        return;
      }
      showError(texts.offline);
    }
    if (live !== controller) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 10000);
  }
}

function show(next) {
  view = next;
  const app = $('app');
  app.setAttribute('aria-busy', 'false');
  app.dataset.status = next.status;
  app.dataset.seq = next.seq ?? '';
  const spectator = !next.you && next.status === 'running';
  say('turn', next.status === 'none' ? next.message : [next.turn, spectator ? texts.spectating : null].filter(Boolean).join(' '));
  say('throw', next.throw);
  say('score', (next.score ?? []).join(' · '));
  const narration = $('narration');
  narration.replaceChildren(...(next.narration ?? []).map((line) => {
    const item = document.createElement('li');
    item.textContent = line;
    return item;
  }));
  const board = $('board');
  board.setAttribute('aria-label', texts.board);
  const svg = next.svg ? parseSvg(next.svg) : null;
  board.replaceChildren(...(svg ? [svg] : []));
  picker = new Picker(next.moves ?? []);
  mark();
}

/** Marks the movable pieces, or the chosen piece and where it can go, on the board and in the controls. */
function mark() {
  const svg = $('board').querySelector('svg');
  const controls = $('controls');
  controls.hidden = !picker.active;
  $('moves-title').textContent = texts.moves;
  $('keys').textContent = texts.keyboard;
  if (svg) {
    for (const element of svg.querySelectorAll('.pl-source,.pl-target,.pl-selected')) {
      element.classList.remove('pl-source', 'pl-target', 'pl-selected');
    }
  }
  const layer = svg ? touchLayer(svg) : null;
  const buttons = [];
  if (!picker.active) {
    $('targets').replaceChildren();
    return;
  }
  const seat = view.mover;
  if (picker.selected === null) {
    say('hint', texts.pick_piece);
    for (const [key, moves] of picker.sources) {
      const elements = svg ? sourceElements(svg, key, seat) : [];
      for (const element of elements) element.classList.add('pl-source');
      if (layer) touchArea(layer, elements, key, 'source', key.startsWith('home-') ? texts.enter : moves[0].label);
      if (key.startsWith('home-')) buttons.push(button(texts.enter, () => choose(key)));
    }
  } else {
    say('hint', texts.pick_target);
    const chosen = svg ? sourceElements(svg, picker.selected, seat) : [];
    for (const element of chosen) element.classList.add('pl-selected');
    for (const [key, moves] of picker.targets()) {
      const elements = svg ? targetElements(svg, key) : [];
      for (const element of elements) element.classList.add('pl-target');
      if (layer) touchArea(layer, elements, key, 'target', moves.map((move) => move.label).join('; '));
      for (const move of moves) buttons.push(button(move.label, () => play(move), move.captures ? 'capture' : ''));
    }
    buttons.push(button(texts.cancel, () => choose(null), 'cancel'));
  }
  $('targets').replaceChildren(...buttons);
}

function button(label, action, kind = '') {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  if (kind) element.className = kind;
  element.addEventListener('click', action);
  return element;
}

function choose(key) {
  if (key === null) picker.clear();
  else if (picker.selected !== key) picker.select(key);
  shown();
}

/** Marks the board anew and puts the focus where the next choice is made. */
function shown() {
  mark();
  const first = $('board').querySelector(picker.selected === null ? '.pl-hit-source' : '.pl-hit-target');
  (first ?? $('targets').querySelector('button'))?.focus();
}

async function play(move) {
  if (playing || !view) return;
  playing = true;
  $('app').setAttribute('aria-busy', 'true');
  try {
    show(await api.post(api.route + 'move', { game_id: view.game_id, seq: view.seq, move: move.move }));
    showError(null);
  } catch (error) {
    showError(error instanceof Refusal ? error.message : texts.offline);
    if (error instanceof Refusal && error.status === 401) await session();
  } finally {
    playing = false;
    $('app').setAttribute('aria-busy', 'false');
  }
}

function touched(element) {
  const board = $('board');
  const place = closestPlace(element);
  if (!place || !picker.active || playing) return;
  const outcome = picker.touch(keysAt(element, board));
  if (outcome.play) {
    if (outcome.play.length === 1) play(outcome.play[0]);
    else {
      mark(); // several throws land there: the member picks one of the buttons
      $('targets').querySelector('button')?.focus();
    }
    return;
  }
  shown();
}

$('board').addEventListener('click', (event) => touched(event.target));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && picker.selected !== null) {
    event.preventDefault();
    choose(null);
    return;
  }
  if ((event.key === 'Enter' || event.key === ' ') && $('board').contains(event.target)) {
    event.preventDefault();
    touched(event.target);
  }
});

start();
