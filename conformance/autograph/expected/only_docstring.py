def tf__only_docstring(x):
    """Nothing here."""
    with ag__.FunctionScope('only_docstring', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        pass
