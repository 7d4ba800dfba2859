// The sign-in against the SDK's own DiscordSDKMock: the commands the page sends Discord, and what it sends the
// backend (a stand-in fetch that answers as bot/activity/routes.py does).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiscordSDKMock } from '@discord/embedded-app-sdk';
import { Api, Refusal } from '../src/api.js';
import { SCOPES, signIn } from '../src/signin.js';

const CLIENT_ID = '1057489987654321012';
console.info = () => {}; // the mock logs every command it answers

function mockSdk(overrides = {}) {
  const sdk = new DiscordSDKMock(CLIENT_ID, '111', '222', null);
  sdk._updateCommandMocks(overrides);
  return sdk;
}

function backend(answer) {
  const calls = [];
  const fetcher = async (url, init) => {
    calls.push({ url, init, body: init.body ? JSON.parse(init.body) : undefined });
    const [status, data] = answer(url, init);
    return { ok: status < 400, status, json: async () => data };
  };
  return { calls, api: new Api('/.proxy/', fetcher) };
}

const SESSION = {
  access_token: 'access-1',
  ticket: 'ticket-1',
  expires_in: 900,
  renew_before: 300,
  user: { id: '42', name: 'alice' },
  lang: 'fr',
  api: 'shard-1/api/',
  texts: {},
  game: { status: 'none' },
};

function authenticated(id = '42') {
  return async () => ({
    access_token: 'access-1',
    user: { id, username: 'alice', discriminator: '0', public_flags: 0 },
    scopes: ['identify'],
    expires: '2030-01-01T00:00:00Z',
    application: { id: CLIENT_ID, name: 'Puluc', description: '', rpc_origins: [] },
  });
}

test('the code from authorize goes to the backend with the instance, and authenticate gets its access token', async () => {
  const authorized = [];
  const authenticatedWith = [];
  const sdk = mockSdk({
    authorize: async (args) => {
      authorized.push(args);
      return { code: 'code-1' };
    },
    authenticate: async (args) => {
      authenticatedWith.push(args);
      return authenticated()();
    },
  });
  const { calls, api } = backend(() => [200, SESSION]);
  const session = await signIn(sdk, api, CLIENT_ID);
  assert.equal(session.lang, 'fr');
  assert.deepEqual(authorized, [{ client_id: CLIENT_ID, response_type: 'code', state: '', prompt: 'none', scope: ['identify'] }]);
  assert.deepEqual(SCOPES, ['identify']);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].url, '/.proxy/api/session');
  assert.equal(calls[0].init.method, 'POST');
  assert.deepEqual(calls[0].body, { code: 'code-1', instance_id: sdk.instanceId });
  assert.deepEqual(authenticatedWith, [{ access_token: 'access-1' }]);
  assert.equal(api.ticket, 'ticket-1', 'later requests carry the ticket');
  assert.equal(api.route, 'shard-1/api/', "later requests go where the backend says the member's server is");
});

test('a code the backend refuses stops the sign-in with its sentence, before authenticate', async () => {
  let authenticateCalled = false;
  const sdk = mockSdk({
    authorize: async () => ({ code: 'stale' }),
    authenticate: async () => {
      authenticateCalled = true;
      return authenticated()();
    },
  });
  const { api } = backend(() => [401, { error: 'activity.error.bad_code', message: 'Discord did not confirm your sign-in.' }]);
  await assert.rejects(signIn(sdk, api, CLIENT_ID), (error) => {
    assert.ok(error instanceof Refusal);
    assert.equal(error.status, 401);
    assert.equal(error.key, 'activity.error.bad_code');
    assert.equal(error.message, 'Discord did not confirm your sign-in.');
    return true;
  });
  assert.equal(authenticateCalled, false);
  assert.equal(api.ticket, null);
});

test('Discord authenticating another member than the backend signed in is refused', async () => {
  const sdk = mockSdk({ authorize: async () => ({ code: 'c' }), authenticate: authenticated('999') });
  const { api } = backend(() => [200, SESSION]);
  await assert.rejects(signIn(sdk, api, CLIENT_ID), /someone else/);
  assert.equal(api.ticket, null);
});

test('a member who closes the authorize prompt is not signed in and the backend is never asked', async () => {
  const sdk = mockSdk({
    authorize: async () => {
      throw { code: 5000, message: 'Interaction required' };
    },
  });
  const { calls, api } = backend(() => [200, SESSION]);
  await assert.rejects(signIn(sdk, api, CLIENT_ID));
  assert.equal(calls.length, 0);
});

test('the ticket travels in the Authorization header of later requests', async () => {
  const { calls, api } = backend(() => [200, { status: 'none' }]);
  api.ticket = 'ticket-9';
  await api.get('api/game');
  assert.equal(calls[0].init.headers.Authorization, 'Bearer ticket-9');
  assert.equal(calls[0].init.method, 'GET');
});
