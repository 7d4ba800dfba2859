// Plays Discord's client for the Activity's page in the end-to-end test: it frames the page as Discord does
// (frame_id, instance_id, platform, guild_id, channel_id in the query) and answers the real Embedded App SDK's
// RPC over postMessage: the handshake (READY), AUTHORIZE with the code the test issued, AUTHENTICATE as the
// member the test names, and any other command with an empty answer. Everything it was asked is kept in
// window.discordSaw for the test to read.
const params = new URLSearchParams(location.search);
const user = { id: params.get('user'), username: params.get('name'), discriminator: '0', avatar: null,
               public_flags: 0, global_name: params.get('name') };
const saw = { handshake: null, commands: [] };
window.discordSaw = saw;

const frame = document.createElement('iframe');
frame.id = 'activity';
frame.title = 'Puluc';
const query = new URLSearchParams({
  frame_id: 'frame-' + params.get('user'),
  instance_id: params.get('instance'),
  platform: params.get('platform') || 'desktop',
  guild_id: params.get('guild'),
  channel_id: params.get('channel'),
});
frame.src = `/activity/?${query}`;
// Sized by attributes: the web companion's policy allows no inline style.
frame.setAttribute('width', String(window.innerWidth - 20)); // the body's margins and the frame's border
frame.setAttribute('height', String(window.innerHeight));
document.body.append(frame);

const FRAME = 1;

function reply(message) {
  frame.contentWindow.postMessage(message, location.origin);
}

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {
    saw.handshake = payload;
    reply([FRAME, { cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {
      v: 1,
      config: { cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production' },
      user: { id: user.id, username: user.username, discriminator: '0' },
    } }]);
    return;
  }
  if (opcode !== FRAME) return;
  const { cmd, nonce, args } = payload;
  saw.commands.push({ cmd, args });
  let data = null;
  if (cmd === 'AUTHORIZE') {
    data = { code: params.get('code') };
  } else if (cmd === 'AUTHENTICATE') {
    data = {
      access_token: args.access_token,
      user,
      scopes: ['identify'],
      expires: '2030-01-01T00:00:00.000Z',
      application: { id: saw.handshake.client_id, name: 'Puluc', description: '', icon: null, rpc_origins: [] },
    };
  }
  reply([FRAME, { cmd, nonce, evt: null, data }]);
});
