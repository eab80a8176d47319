"""The ``ag__`` namespace converted code runs against: every name TF's templates reference."""
from .api import (ConversionOptions, Feature, FunctionScope, STANDARD_OPTIONS as STD,  # noqa: F401
                  autograph_artifact, converted_call, with_function_scope)
from .operators import (Undefined, UndefinedReturnValue, and_, eq, for_stmt, if_exp,  # noqa: F401
                        if_stmt, ld, ldu, not_, not_eq, or_, while_stmt)
