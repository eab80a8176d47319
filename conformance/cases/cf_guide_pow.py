"""ConcreteFunction (guide): square = pow.get_concrete_function(a=TensorSpec(None, f32), b=2); square(10., b=3) -> TypeError."""
@tf.function
def pow_(a, b):
    return a ** b

square = concrete("square", pow_, a=tf.TensorSpec(None, tf.float32), b=2)
call("square(10.0)", square, tf.constant(10.0))
call("square(10.0, b=2)", square, tf.constant(10.0), b=2)
call("square(10.0, b=3)", square, tf.constant(10.0), b=3)
call("square(vector)", square, tf.constant([1.0, 2.0, 3.0]))
describe("square", square)
