import tensorflow as tf

CORPUS_TARGET = "Scaler.docstring_method"


class Scaler(object):

    def docstring_method(self, x):
        """Scales x.

        Continuation lines sit at the method body's indentation.
          This one is deeper.
        """
        if x > 0:
            x = x * self.k
        return x
