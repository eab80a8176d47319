"""Keyword names that are not Python identifiers are sanitized as TF does (`a-b` -> `a_b`,
`1a` -> `arg_1a`, `_x` -> `arg__x`); two that sanitize to one name are TF's ValueError."""
@tf.function
def kw(**kwargs):
    return sorted(kwargs)


call("collision", kw, **{"a-b": 1, "a_b": 2})
call("a dash", kw, **{"c-d": 1})
call("a digit first", kw, **{"1a": 1, "q": 2})


@tf.function
def under(_x, y=1):
    return _x + y


call("underscore positionally", under, 1)
call("underscore by keyword", under, _x=1)
count("count", kw)
