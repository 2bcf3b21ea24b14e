import { AppError, dependencyFull, dependencyUnavailable } from '../errors.js';

interface PgError {
  code?: string;
  constraint?: string;
}

/**
 * Unique constraints and the 409 message each one means. Constraint names are set in the
 * migrations; PostgreSQL reports them on 23505 so one table maps every duplicate.
 */
const UNIQUE_MESSAGES: Record<string, string> = {
  estates_org_name_uq: 'An estate with this name already exists in the organization',
  estates_slug_uq: 'An estate with this slug already exists',
  buildings_estate_name_uq: 'A building with this name already exists in the estate',
  apartments_building_name_uq: 'An apartment with this name already exists in the building',
  apartments_org_external_id_uq: 'externalId is already the externalId of another apartment in this organization',
};

export function registerUniqueMessage(constraint: string, message: string): void {
  UNIQUE_MESSAGES[constraint] = message;
}

/** Turns a database error into the AppError a client should see, or undefined when it is a fault. */
export function mapDatabaseError(err: unknown): AppError | undefined {
  const { code, constraint } = (err ?? {}) as PgError;
  switch (code) {
    case '23505':
      return new AppError('conflict', (constraint && UNIQUE_MESSAGES[constraint]) || 'The request collides with an existing record');
    case '23503':
      return new AppError('conflict', 'The request references a record that no longer exists or is still referenced');
    case '22021': // character_not_in_repertoire (NUL in text)
    case '22P05': // untranslatable_character
      return new AppError('unprocessable', 'text fields must not contain NUL characters');
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '22009': // invalid_time_zone_displacement_value
      return new AppError('unprocessable', 'a date-time value is out of range');
    case '22003': // numeric_value_out_of_range
      return new AppError('unprocessable', 'a number is out of range');
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return new AppError('conflict', 'The request collided with a concurrent change; retry it');
    default:
      break;
  }
  if (!code) return connectionFault(err);
  // Class 53, insufficient resources: a full disk needs an operator (507); the others pass (503).
  if (code === '53100' || code === 'ENOSPC') return dependencyFull('database', err);
  if (code === '53300') return dependencyUnavailable('database', err, 'has no free connection', 2);
  if (code === '53200') return dependencyUnavailable('database', err, 'is out of memory');
  if (code.startsWith('53')) return dependencyUnavailable('database', err, 'is out of resources');
  // 57P0x: the server is shutting down, crashed, starting, or the session was ended; 08xxx: the connection.
  if (/^57P0\d$/.test(code) || code.startsWith('08')) return dependencyUnavailable('database', err);
  return connectionFault(err);
}

/** A connection the pg driver could not make or lost (no SQLSTATE): the database is unreachable. */
function connectionFault(err: unknown): AppError | undefined {
  const netCode = (err as { code?: string } | undefined)?.code;
  if (netCode === 'ECONNREFUSED' || netCode === 'ECONNRESET' || netCode === 'ETIMEDOUT' || netCode === 'EPIPE') {
    return dependencyUnavailable('database', err);
  }
  const message = (err as Error | undefined)?.message ?? '';
  if (/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)) {
    return dependencyUnavailable('database', err);
  }
  return undefined;
}
