import tensorflow as tf

CORPUS_TARGET = "Outer.Inner.run"


class Outer:

  class Inner:

    @staticmethod
    def run(n, *, k=3):
      total = 0
      while n > 0:
        total += n * k
        n -= 1
      return total
