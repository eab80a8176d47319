"""A generated sentence-pair task in MNLI's form, for BERT-tiny where no MNLI can be downloaded.

Each example is BERT's input for a pair: `[CLS] premise [SEP] hypothesis [SEP]` padded to
`seq_length`, with segment id 0 for [CLS], the premise and its [SEP], 1 for the hypothesis and its
[SEP], and an input mask of 1 on real tokens. The words fall in topics of TOPIC_SIZE consecutive
ids; a premise is 4-7 distinct words of one topic. The label follows MNLI's ids
(run_classifier.py's MnliProcessor: contradiction 0, entailment 1, neutral 2) from this rule:

- entailment: the hypothesis is 2-3 words of the premise;
- contradiction: NOT followed by 2-3 words of the premise;
- neutral: 2-3 words of another topic (the hypothesis is about something else).

Telling contradiction apart needs only the NOT token in segment 1; telling entailment from neutral
needs the hypothesis's topic compared with the premise's (information from both segments). Pairs
have 7-13 tokens, so the padding mask matters. Seeded numpy: the same split everywhere."""
from dataclasses import dataclass

import numpy as np

PAD, CLS, SEP, NOT = 0, 1, 2, 3
FIRST_WORD = 4
TOPIC_SIZE = 10
LABELS = ("contradiction", "entailment", "neutral")
CONTRADICTION, ENTAILMENT, NEUTRAL = 0, 1, 2


@dataclass
class PairData:
    input_ids: np.ndarray  # int32 [n, seq_length]
    input_mask: np.ndarray  # int32 [n, seq_length]
    segment_ids: np.ndarray  # int32 [n, seq_length]
    labels: np.ndarray  # int32 [n]

    def __len__(self):
        return len(self.labels)

    def batch(self, start, size):
        s = slice(start, start + size)
        return self.input_ids[s], self.input_mask[s], self.segment_ids[s], self.labels[s]


def example(rng, vocab_size, seq_length, label):
    """One (input_ids, input_mask, segment_ids) of the given label."""
    topics = (vocab_size - FIRST_WORD) // TOPIC_SIZE
    topic = rng.randint(topics)
    words = FIRST_WORD + topic * TOPIC_SIZE + np.arange(TOPIC_SIZE)
    premise = rng.choice(words, size=rng.randint(4, 8), replace=False)
    if label == NEUTRAL:
        other = (topic + 1 + rng.randint(topics - 1)) % topics
        words = FIRST_WORD + other * TOPIC_SIZE + np.arange(TOPIC_SIZE)
        hyp = list(rng.choice(words, size=rng.randint(2, 4), replace=False))
    else:
        hyp = list(rng.choice(premise, size=rng.randint(2, 4), replace=False))
    if label == CONTRADICTION:
        hyp = [NOT] + hyp
    tokens = [CLS] + list(premise) + [SEP] + hyp + [SEP]
    segments = [0] * (len(premise) + 2) + [1] * (len(hyp) + 1)
    n = len(tokens)
    if n > seq_length:
        raise ValueError("seq_length %d is too short for a %d-token pair" % (seq_length, n))
    pad = seq_length - n
    return tokens + [PAD] * pad, [1] * n + [0] * pad, segments + [0] * pad


def generate(n, vocab_size=64, seq_length=16, seed=0):
    """n examples with balanced labels, shuffled."""
    if vocab_size < FIRST_WORD + 2 * TOPIC_SIZE:
        raise ValueError("vocab_size must be at least %d (two topics)" % (FIRST_WORD + 2 * TOPIC_SIZE))
    rng = np.random.RandomState(seed)
    labels = rng.permutation(np.arange(n) % len(LABELS)).astype(np.int32)
    ids, mask, seg = zip(*(example(rng, vocab_size, seq_length, int(y)) for y in labels))
    as32 = lambda a: np.asarray(a, np.int32)  # noqa: E731
    return PairData(as32(ids), as32(mask), as32(seg), labels)


def split(n_train=2048, n_test=512, vocab_size=64, seq_length=16, seed=0):
    """(train, test): disjoint draws from two seeds derived from `seed`."""
    return (generate(n_train, vocab_size, seq_length, seed * 2 + 1),
            generate(n_test, vocab_size, seq_length, seed * 2 + 2))
