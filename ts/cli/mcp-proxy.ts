/**
 * `gortex mcp` as a thin stdio ↔ daemon-socket proxy. Bytes pass through untouched: the daemon's
 * session (`ts/mcp/line-transport.ts`) frames them, answers malformed or oversized messages with
 * JSON-RPC errors and logs them in the daemon log; the proxy also says so on its stderr, where
 * the MCP client shows a server's log, when a message passes the size limit.
 */

/**
 * Connects stdin/stdout to an MCP session of the daemon (starting one when needed) for the
 * repository at `root`, with the client's tool spec. Returns `'served'` when the session ran and
 * ended, or `'embedded'` when no daemon is available and the caller should serve in-process.
 */
export async function proxyToDaemon(root: string, toolSpec: string | undefined, log: (message: string) => void): Promise<'served' | 'embedded'> {
  const { daemonPaths } = await import('../daemon/paths');
  const { connectDaemon, ensureDaemon, DaemonUnavailableError, HandshakeError } = await import('../daemon/client');
  const paths = daemonPaths();
  let available: boolean;
  try {
    available = await ensureDaemon(paths, log);
  } catch (error) {
    log(`no daemon could start (${(error as Error).message}); serving embedded`);
    return 'embedded';
  }
  if (!available) {
    log('GORTEX_AUTOSTART=0 and no daemon is running; serving embedded');
    return 'embedded';
  }
  let connection;
  try {
    connection = await connectDaemon(paths, { mode: 'mcp', cwd: root, client: 'gortex-mcp', ...(toolSpec !== undefined ? { tools: toolSpec } : {}) });
  } catch (error) {
    if (error instanceof HandshakeError) throw new Error(`the daemon refused the session: ${error.code}: ${error.message}`);
    if (error instanceof DaemonUnavailableError) {
      log(`${error.message}; serving embedded`);
      return 'embedded';
    }
    throw error;
  }
  const { socket, ack } = connection;
  const where = ack.bound_repos ? `${ack.bound_repos.length} repositories: ${ack.bound_repos.join(', ')}` : ack.default_repo;
  log(`connected to the gortex daemon (session ${ack.session_id}, ${where}${ack.warming ? `, warming up: ${ack.warmup_phase}` : ''})`);
  const { MAX_LINE_MESSAGE_BYTES, byteSizeText } = await import('../mcp/limits');
  process.stdin.on('data', oversizedLineWatch(MAX_LINE_MESSAGE_BYTES, () => log(`a message on stdin is over the ${byteSizeText(MAX_LINE_MESSAGE_BYTES)} limit of one MCP message; the daemon skips it and answers an error`)));
  let stdinEnded = false;
  process.stdin.once('end', () => {
    stdinEnded = true;
    socket.end();
  });
  process.stdin.pipe(socket, { end: false });
  socket.pipe(process.stdout, { end: false });
  socket.resume();
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  if (!stdinEnded) throw new Error('the daemon closed the session (it stopped or restarted); reconnect to continue');
  return 'served';
}

/** A `data` listener calling `onOver` once per line that grows past `max` bytes (newline excluded). */
function oversizedLineWatch(max: number, onOver: () => void): (chunk: Buffer | string) => void {
  let lineBytes = 0;
  let reported = false;
  return (data) => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      lineBytes += (newline < 0 ? chunk.length : newline) - start;
      if (!reported && lineBytes > max) {
        reported = true;
        onOver();
      }
      if (newline < 0) return;
      lineBytes = 0;
      reported = false;
      start = newline + 1;
    }
  };
}
