/**
 * The e-mails and phones an import has met so far, as 32-bit hashes in an open-addressing table (about 16 MB per
 * million rows). A row none of whose keys is in it repeats no earlier row of the file, so it can be copied into an
 * empty list (COPY cannot skip conflicts, and costs PostgreSQL well under half of an insert that does). A hash
 * that collides only sends a new row the slower way; so does every row once the table is full.
 */
const FIRST_SLOTS = 1 << 16;
/** 32 MB: room for about 5.8 million keys. */
const MAX_SLOTS = 1 << 23;
const MAX_LOAD = 0.7;
const EMAIL_SEED = 0x811c9dc5;
const PHONE_SEED = 0x050c5d1f;

/** FNV-1a over the UTF-16 code units; 0 marks an empty slot, so no key hashes to it. */
function hash(text: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0 || 1;
}

export class SeenKeys {
  #slots = new Uint32Array(FIRST_SLOTS);
  #count = 0;
  #full = false;

  /** Adds the row's keys; true when an earlier row may share one of them. */
  add(email: string | null, phone: string | null): boolean {
    const emailSeen = email !== null && this.#add(hash(email, EMAIL_SEED));
    const phoneSeen = phone !== null && this.#add(hash(phone, PHONE_SEED));
    return this.#full || emailSeen || phoneSeen;
  }

  /** Adds a hash; true if it was there already. */
  #add(key: number): boolean {
    if (this.#full) return true;
    if (this.#count + 1 > this.#slots.length * MAX_LOAD) {
      if (this.#slots.length === MAX_SLOTS) {
        this.#full = true;
        return true;
      }
      this.#grow();
    }
    if (!SeenKeys.#insert(this.#slots, key)) return true;
    this.#count++;
    return false;
  }

  #grow(): void {
    const slots = new Uint32Array(this.#slots.length * 2);
    for (const key of this.#slots) if (key !== 0) SeenKeys.#insert(slots, key);
    this.#slots = slots;
  }

  /** Linear probing; false if the key is there already. */
  static #insert(slots: Uint32Array, key: number): boolean {
    const mask = slots.length - 1;
    for (let slot = key & mask; ; slot = (slot + 1) & mask) {
      if (slots[slot] === key) return false;
      if (slots[slot] === 0) {
        slots[slot] = key;
        return true;
      }
    }
  }
}
