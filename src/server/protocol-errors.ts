/**
 * Internal protocol failures (never sent as 1105). Handlers turn MalformedPacket into an ERR
 * packet (or close the connection during the handshake); PacketTooLarge becomes ERR 1153 and
 * closes the connection.
 */

/** A payload is shorter than its fields claim, or a field is out of range. */
export class MalformedPacket extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedPacket';
  }
}

/** An incoming packet exceeds max_allowed_packet; `seq` is the sequence id it announced. */
export class PacketTooLarge extends Error {
  constructor(readonly seq: number) {
    super("Got a packet bigger than 'max_allowed_packet' bytes");
    this.name = 'PacketTooLarge';
  }
}

/** A response failed after part of it was already sent: the connection must be closed. */
export class BrokenResponse extends Error {
  constructor(readonly causeError: unknown) {
    super(causeError instanceof Error ? causeError.message : String(causeError));
    this.name = 'BrokenResponse';
  }
}
