/**
 * COM_STMT_EXECUTE request: 0x17, stmt_id u32, flags u8, iteration_count u32, then for
 * num_params > 0: NULL bitmap, new_params_bound u8, [n x (type u8, flags u8)], values.
 * Types are sticky per statement: with new_params_bound = 0 the previous ones are reused.
 * A parameter that received long data has no value in the payload.
 * Spec: /work/shared/reference/mysql-protocol.md §2.2.
 */
import type { Value } from '../../types/index.js';
import { ByteReader } from '../byte-reader.js';
import { isKnownParamType, longDataValue, readBinaryParam } from '../binary-value.js';
import { MalformedPacket } from '../protocol-errors.js';

export interface ExecuteHeader {
  readonly stmtId: number;
  readonly flags: number;
  /** Positioned after the header, at the NULL bitmap. */
  readonly reader: ByteReader;
}

/** `payload` includes the command byte. Throws MalformedPacket. */
export function decodeExecuteHeader(payload: Buffer): ExecuteHeader {
  const reader = new ByteReader(payload, 1);
  const stmtId = reader.u32();
  const flags = reader.u8();
  reader.u32(); // iteration_count, always 1
  return { stmtId, flags, reader };
}

export interface ParamState {
  /** 2 bytes per parameter (type, flags) from the last execute that bound them; null = never bound. */
  types: Buffer | null;
  /** COM_STMT_SEND_LONG_DATA chunks per parameter index. */
  readonly longData: Map<number, Buffer[]>;
}

/**
 * Decodes the parameter block into values. Updates `state.types` when new types are bound.
 * Throws MalformedPacket on truncated data, unknown types or missing types.
 */
export function decodeExecuteParams(r: ByteReader, paramCount: number, state: ParamState): Value[] {
  if (paramCount === 0) return [];
  const bitmap = r.bytes((paramCount + 7) >> 3);
  const bound = r.u8();
  if (bound === 1) state.types = Buffer.from(r.bytes(paramCount * 2));
  else if (bound !== 0) throw new MalformedPacket('invalid new_params_bound');
  const types = state.types;
  if (types === null) throw new MalformedPacket('parameter types were never bound');
  const values: Value[] = new Array<Value>(paramCount);
  for (let i = 0; i < paramCount; i++) {
    const type = types[2 * i] as number;
    if (!isKnownParamType(type)) throw new MalformedPacket(`unsupported parameter type ${type}`);
    const chunks = state.longData.get(i);
    if (chunks !== undefined) values[i] = longDataValue(Buffer.concat(chunks), type);
    else if (((bitmap[i >> 3] as number) >> (i & 7)) & 1) values[i] = null;
    else values[i] = readBinaryParam(r, type, ((types[2 * i + 1] as number) & 0x80) !== 0);
  }
  return values;
}
