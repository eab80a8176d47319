"""Side effects: appending to an external list happens once per trace and leaks a symbolic tensor."""
external_list = []

@tf.function
def side_effect(x):
    external_list.append(x * 2)
    return x

for i in range(3):
    call(f"call {i}", side_effect, tf.constant(i))
record("len(external_list)", len(external_list))
record("str(leaked)", str(external_list[0]))
record("repr(leaked)", repr(external_list[0]))
