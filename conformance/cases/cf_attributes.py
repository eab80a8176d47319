"""ConcreteFunction attributes: name, graph name, inputs, outputs, structured signature, repr/str."""
@tf.function
def scaled(x, factor):
    return x * factor

cf = scaled.get_concrete_function(tf.constant([1, 2]), 2)
record("name", cf.name)
record("graph.name", cf.graph.name)
record("inputs", [repr(t) for t in cf.inputs])
record("outputs", [repr(t) for t in cf.outputs])
record("structured_input_signature", repr(cf.structured_input_signature))
record("structured_outputs", repr(cf.structured_outputs))
record("captured_inputs", cf.captured_inputs)
record("repr", repr(cf))
record("str", str(cf))
record("function_type", str(cf.function_type))
record("verbose signature", cf.pretty_printed_signature())
record("short signature", cf.pretty_printed_signature(verbose=False))
