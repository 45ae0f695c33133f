/**
 * A per-socket budget of events: SOCKET_RATE.events per window; past it an
 * event is refused, and a socket that keeps sending past the hard limit is
 * disconnected. Counted per socket, so one flooding tab slows only itself.
 */
import { SOCKET_RATE } from '../../../core/realtime.js';

export class SocketBudget {
  private windowStart = Date.now();
  private used = 0;
  private refused = 0;

  constructor(private readonly rate: { events: number; windowMs: number; disconnectAfter: number } = SOCKET_RATE) {}

  /** 'ok' to handle the event, 'refuse' to answer RATE_LIMITED, 'disconnect' to drop the socket. */
  take(now = Date.now()): 'ok' | 'refuse' | 'disconnect' {
    if (now - this.windowStart >= this.rate.windowMs) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used < this.rate.events) {
      this.used++;
      return 'ok';
    }
    this.refused++;
    return this.refused > this.rate.disconnectAfter ? 'disconnect' : 'refuse';
  }
}
