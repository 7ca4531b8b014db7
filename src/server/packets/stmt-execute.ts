/**
 * COM_STMT_EXECUTE request: 0x17, stmt_id u32, flags u8, iteration_count u32, then for
 * num_params > 0: NULL bitmap, new_params_bound u8, [n x (type u8, flags u8)], values.
 * Types are sticky per statement: with new_params_bound = 0 the previous ones are reused (any
 * non-zero value means "bound", as in MySQL). A parameter that received long data has no
 * value in the payload.
 * Errors follow MySQL 8.0 (Protocol_classic::parse_packet, set_parameters): bytes missing
 * anywhere are MalformedPacket (1835); types never bound, unknown types, undecodable values and
 * overflowed long data are SqlErrors (1210, or MySQL's 1105 long-data text).
 * Spec: /work/shared/reference/mysql-protocol.md §2.2.
 */
import { SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { ByteReader } from '../byte-reader.js';
import { InvalidParamValue, isKnownParamType, longDataValue, readBinaryParam } from '../binary-value.js';
import type { LongData } from '../long-data.js';

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
  /** COM_STMT_SEND_LONG_DATA bytes per parameter index. */
  readonly longData: Map<number, LongData>;
}

const wrongArguments = (): SqlError => SqlError.of('ER_WRONG_ARGUMENTS', 'mysqld_stmt_execute');

/**
 * Decodes the parameter block into values. New types become `state.types` once every value decoded.
 * Throws MalformedPacket when bytes are missing, SqlError 1210 when types were never bound,
 * are unknown, or a value cannot be decoded, and MySQL's long-data error after an overflow.
 */
export function decodeExecuteParams(r: ByteReader, paramCount: number, state: ParamState): Value[] {
  if (paramCount === 0) return [];
  const bitmap = r.bytes((paramCount + 7) >> 3);
  const types = r.u8() !== 0 ? r.bytes(paramCount * 2) : state.types;
  if (types === null) throw wrongArguments();
  const values: Value[] = new Array<Value>(paramCount);
  for (let i = 0; i < paramCount; i++) {
    const type = types[2 * i] as number;
    if (!isKnownParamType(type)) throw wrongArguments();
    const long = state.longData.get(i);
    if (long !== undefined) {
      if (long.overflow) throw SqlError.of('ER_LONG_DATA_TOO_LONG');
      values[i] = decoded(() => longDataValue(long.bytes(), type));
    } else if (((bitmap[i >> 3] as number) >> (i & 7)) & 1) values[i] = null;
    else values[i] = decoded(() => readBinaryParam(r, type, ((types[2 * i + 1] as number) & 0x80) !== 0));
  }
  // only an execute that decoded completely makes its types sticky
  if (types !== state.types) state.types = Buffer.from(types);
  return values;
}

function decoded(read: () => Value): Value {
  try {
    return read();
  } catch (err) {
    if (err instanceof InvalidParamValue) throw wrongArguments();
    throw err;
  }
}
