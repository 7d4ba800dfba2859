// Signing in as Discord requires, with the official Embedded App SDK: ready, authorize (scope identify), the
// code exchanged by our backend (which checks the Activity instance and the server and gives the page its own
// ticket and where the rest of its API is), then authenticate with the access token the exchange returned.

export const SCOPES = ['identify'];

/**
 * Signs the member in; resolves with the backend's session (ticket, user, language, texts, game).
 * `sdk` is a DiscordSDK (or the SDK's own DiscordSDKMock in the tests); `api` an Api.
 */
export async function signIn(sdk, api, clientId) {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: SCOPES,
  });
  const session = await api.post('api/session', { code, instance_id: sdk.instanceId });
  const auth = await sdk.commands.authenticate({ access_token: session.access_token });
  if (!auth || auth.user?.id !== session.user.id) {
    throw new Error('Discord authenticated someone else than the backend signed in');
  }
  api.ticket = session.ticket;
  api.route = session.api;
  return session;
}
