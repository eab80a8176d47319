"""S14: a @dataclass (eq=True, so unhashable) instance -> TypeError; a frozen dataclass is fine."""
import dataclasses

@dataclasses.dataclass
class Cfg:
    n: int

@dataclasses.dataclass(frozen=True)
class FrozenCfg:
    n: int

@tf.function
def k(cfg):
    print("trace", cfg)
    return tf.constant(cfg.n)

call("dataclass", k, Cfg(1))
call("frozen 1", k, FrozenCfg(1))
call("frozen 1 again (equal, new object)", k, FrozenCfg(1))
call("frozen 2", k, FrozenCfg(2))
