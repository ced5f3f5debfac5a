// A tiny encoder–decoder translator in the NLLB / M2M100 ONNX export layout, with the real signatures: a word
// dictionary English ↔ Spanish, so the ONNX seq2seq adapter is proven end to end without a real model. The
// encoder maps each token to the one-hot row of its translation; the decoder's logits at position t are encoder row t.
import { OnnxGraph } from './onnx-graph.ts';

/** Lower-case pairs, one token each; each pair is also offered capitalised (`Hello` ↔ `Hola`). */
const DICTIONARY: readonly [string, string][] = [
  ['hello', 'hola'], ['world', 'mundo'], ['good', 'buenos'], ['morning', 'días'], ['friends', 'amigos'],
  ['friend', 'amigo'], ['the', 'el'], ['house', 'casa'], ['is', 'es'], ['big', 'grande'], ['small', 'pequeño'],
  ['cat', 'gato'], ['dog', 'perro'], ['water', 'agua'], ['book', 'libro'], ['thanks', 'gracias'], ['yes', 'sí'],
  ['red', 'rojo'], ['green', 'verde'], ['blue', 'azul'], ['white', 'blanco'], ['black', 'negro'], ['sun', 'sol'],
  ['moon', 'luna'], ['city', 'ciudad'], ['day', 'día'], ['night', 'noche'], ['bread', 'pan'], ['wine', 'vino'],
  ['tree', 'árbol'], ['car', 'coche'], ['school', 'escuela'],
];
/** NLLB's ids 0–3. */
const SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'];
const LANGUAGES = ['eng_Latn', 'spa_Latn'];
/** Out-of-dictionary text passes through character by character (each maps to itself). */
const CHARACTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZáéíóúñüÁÉÍÓÚÑÜ0123456789.,;:!?¿¡\'"-()'];
const SPACE = '\u2581';
// Unigram log-probabilities: a whole dictionary word always beats spelling it out.
const WORD_SCORE = -1;
const CHARACTER_SCORE = -8;
const FLOAT = 1; // onnx.TensorProto.DataType.FLOAT, for Cast

const capitalise = (word: string): string => word[0]!.toUpperCase() + word.slice(1);

interface Vocabulary {
  /** The Unigram pieces (ids 0…n-1) with their scores; the language tokens follow as added tokens. */
  pieces: [string, number][];
  /** Every token by id, language tokens included. */
  tokens: string[];
  /** Token id → the id of its translation (itself when it has none). */
  translation: number[];
}

function vocabulary(): Vocabulary {
  const pairs = DICTIONARY.flatMap(([en, es]) => [[en, es], [capitalise(en), capitalise(es)]]);
  const pieces: [string, number][] = [
    ...SPECIALS.map((token): [string, number] => [token, 0]),
    ...pairs.flat().map((word): [string, number] => [SPACE + word, WORD_SCORE]),
    ...[SPACE, ...CHARACTERS].map((c): [string, number] => [c, CHARACTER_SCORE]),
  ];
  const tokens = [...pieces.map(([token]) => token), ...LANGUAGES];
  const ids = new Map(tokens.map((token, id) => [token, id]));
  if (ids.size !== tokens.length) throw new Error('tiny-seq2seq: a word appears twice in the dictionary');
  const translation = tokens.map((_, id) => id);
  for (const [a, b] of pairs) {
    const [from, to] = [ids.get(SPACE + a)!, ids.get(SPACE + b)!];
    translation[from] = to;
    translation[to] = from;
  }
  return { pieces, tokens, translation };
}

function tokenizerJson({ pieces, tokens }: Vocabulary): object {
  const special = (token: string) => ({ id: tokens.indexOf(token), content: token, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const metaspace = { type: 'Metaspace', replacement: SPACE, prepend_scheme: 'always', split: true };
  const token = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  const sequence = (id: string) => ({ Sequence: { id, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [...SPECIALS, ...LANGUAGES].map(special),
    normalizer: {
      type: 'Sequence',
      normalizers: [{ type: 'NFC' }, { type: 'Strip', strip_left: true, strip_right: true }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }],
    },
    pre_tokenizer: metaspace,
    // NLLB's template: the source language token, the text, </s> (the adapter adds them itself).
    post_processor: {
      type: 'TemplateProcessing',
      single: [token('eng_Latn'), sequence('A'), token('</s>')],
      pair: [token('eng_Latn'), sequence('A'), sequence('B'), token('</s>')],
      special_tokens: Object.fromEntries(['eng_Latn', '</s>'].map((t) => [t, { id: t, ids: [tokens.indexOf(t)], tokens: [t] }])),
    },
    decoder: metaspace,
    model: { type: 'Unigram', unk_id: SPECIALS.indexOf('<unk>'), vocab: pieces, byte_fallback: false },
  };
}

function encoderModel({ translation }: Vocabulary): Uint8Array {
  const size = translation.length;
  const g = new OnnxGraph();
  g.input('input_ids', 'int64', ['batch_size', 'encoder_sequence_length']);
  g.input('attention_mask', 'int64', ['batch_size', 'encoder_sequence_length']);
  const oneHot = translation.flatMap((to) => Array.from({ length: size }, (_, j) => (j === to ? 1 : 0)));
  const rows = g.node('Gather', [g.constant('float', [size, size], oneHot), 'input_ids'], { axis: 0 });
  const mask = g.node('Unsqueeze', [g.node('Cast', ['attention_mask'], { to: FLOAT }), g.constant('int64', [1], [2])]);
  g.node('Mul', [rows, mask], {}, 'last_hidden_state');
  g.output('last_hidden_state', 'float', ['batch_size', 'encoder_sequence_length', size]);
  return g.toBytes('tiny-seq2seq-encoder');
}

function decoderModel({ translation }: Vocabulary): Uint8Array {
  const g = new OnnxGraph();
  g.input('input_ids', 'int64', ['batch_size', 'decoder_sequence_length']);
  g.input('encoder_attention_mask', 'int64', ['batch_size', 'encoder_sequence_length']);
  g.input('encoder_hidden_states', 'float', ['batch_size', 'encoder_sequence_length', translation.length]);
  const mask = g.node('Unsqueeze', [g.node('Cast', ['encoder_attention_mask'], { to: FLOAT }), g.constant('int64', [1], [2])]);
  const masked = g.node('Mul', ['encoder_hidden_states', mask]);
  // Position t reads encoder row t: [</s>, tgt_lang, w1…] predicts [tgt_lang, w1…, </s>], and stops at the source's </s>.
  const length = g.node('Shape', ['input_ids'], { start: 1, end: 2 });
  g.node('Slice', [masked, g.constant('int64', [1], [0]), length, g.constant('int64', [1], [1])], {}, 'logits');
  g.output('logits', 'float', ['batch_size', 'decoder_sequence_length', translation.length]);
  return g.toBytes('tiny-seq2seq-decoder');
}

function json(value: object): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** The model folder's files by relative path; the same bytes on every call. */
export function tinySeq2SeqFiles(): Map<string, Uint8Array> {
  const vocab = vocabulary();
  const ids = { bos_token_id: 0, pad_token_id: 1, eos_token_id: 2, decoder_start_token_id: 2 };
  const size = vocab.tokens.length;
  return new Map([
    ['config.json', json({ architectures: ['M2M100ForConditionalGeneration'], model_type: 'm2m_100', is_encoder_decoder: true, d_model: size, vocab_size: size, max_position_embeddings: 1024, ...ids })],
    ['generation_config.json', json({ ...ids, max_length: 200 })],
    ['tokenizer.json', json(tokenizerJson(vocab))],
    [
      'tokenizer_config.json',
      json({
        tokenizer_class: 'NllbTokenizer', bos_token: '<s>', eos_token: '</s>', sep_token: '</s>', cls_token: '<s>', unk_token: '<unk>',
        pad_token: '<pad>', additional_special_tokens: LANGUAGES, src_lang: 'eng_Latn', tgt_lang: 'spa_Latn',
        legacy_behaviour: false, clean_up_tokenization_spaces: true, model_max_length: 1024,
      }),
    ],
    ['onnx/encoder_model.onnx', encoderModel(vocab)],
    ['onnx/decoder_model.onnx', decoderModel(vocab)],
  ]);
}
