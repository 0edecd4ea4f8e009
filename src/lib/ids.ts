import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

/** Every record's id: a UUIDv7, so ids sort by creation time. */
export function newId(): string {
  return uuidv7();
}

export function isUuid(value: string): boolean {
  return uuidValidate(value);
}
