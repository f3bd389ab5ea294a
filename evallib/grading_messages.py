"""Every learner-facing sentence of the grading framework and the autograder, in one table.

``evallib.grading`` (check outcomes) and ``scripts/autograde.py`` (the reasons in ``feedback.csv``) look their
sentences up here by key; the language is :mod:`evallib.i18n`'s (``el.setup_notebook(lang="zh")``), and
``MESSAGES_ZH`` is the Chinese table (issue 16). Hints and problem statements live in the exercise sources (exercises/source/*.md).
"""
from __future__ import annotations

MESSAGES = {
    # outcome words (Outcome.status is always the English key; these are what is shown)
    "status.correct": "correct",
    "status.incorrect": "incorrect",
    "status.not attempted": "not attempted",
    "status.received": "received",
    "status_end": ".",
    # evallib.grading: checks
    "placeholder": "{name} is still `...`: replace it with your answer and run the cell.",
    "replace_placeholder": "Replace the `...` with your answer for {names} and run the cell.",
    "raised": "your code raised {error}: {detail}",
    "received": "{names}: recorded. This classroom release does not say whether it is right: it is graded "
                "after you hand in the notebook.",
    "received_function": "{name} is not callable.",
    "number_type": "{name} should be a number, got {type} {value}",
    "number_shape": "{name} should be one number, got an array of shape {shape}",
    "number_finite": "{name} is {value}: a finite number is expected",
    "too_large": "{name} = {value} is too large.",
    "too_small": "{name} = {value} is too small.",
    "too_large_expected": "{name} = {value} is too large (expected {expected}).",
    "too_small_expected": "{name} = {value} is too small (expected {expected}).",
    "int_type": "{name} should be an exact integer (use math.comb/int arithmetic, not floats), got {type}",
    "choice_type": "{name} should be one of {options} (a string), got {value}",
    "choice_unknown": "{name} = {value} is not one of the options {options}.",
    "choice_wrong": "{name} = {value} is not the best choice.",
    "reason_short": "{name} should be a sentence of at least {min_words} words.",
    "reason_keyword": "{name} does not mention the deciding idea (for example: {examples}).",
    "array_type": "{name} should be an array of numbers, got {type}",
    "array_shape": "{name} has shape {shape}, expected {expected}.",
    "array_differs": "{name} differs first at index {index}: {value} instead of {expected}.",
    "function_type": "{name} should be a function, got {type}",
    "function_not_implemented": "{name} still raises NotImplementedError.",
    "function_raised": "{call}{where} raised {error}: {detail}",
    "function_none": "{name} returns None: write its body (replace the `...`).",
    "function_returned": "{call}{where} returned {got}, expected {expected}.",
    "function_should_raise": "{call} should raise ValueError (bad input), raised {error}",
    "function_should_raise_returned": "{call} should raise ValueError (bad input) but returned.",
    "function_timeout": "{call} did not return within {seconds:g} s (time limit)",
    "function_no_result": "{call}: no result (the grading of this function stopped before this call)",
    "no_solution_classroom": "Solutions are not part of this classroom release.",
    "hidden_case_number": "hidden case {i}",
    "hidden_case_raised": "on {case}, your function raised {error}",
    "hidden_case_wrong": "on {case}, your function returned a wrong value ({kind})",
    "hidden_bad_input": "{name} on bad input {j}",
    "array_differs_hidden": "{name} differs first at index {index}.",
    "kind.type": "a {type}, not numbers",
    "kind.shape": "shape {shape} is not the expected shape",
    "kind.finite": "not a finite number",
    "kind.too_large": "too large",
    "kind.too_small": "too small",
    "kind.differs": "some values too large, some too small",
    "forbidden": "implement it yourself: the library functions that solve this problem ({call}) are blocked while "
                 "your function runs on the hidden cases",
    "hint": "**Hint ({name}):** {text}",
    "solution": "**Solution ({name}):**\n\n```python\n{code}\n```",
    # scripts/autograde.py: reasons in grades.csv / feedback.csv
    "missing": "{names} is not defined: its cell was deleted, raised an error, or ran before the cells it needs",
    "hidden_test_failed": "hidden test {i}: {failure}{message}",
    "not_graded_unreached": "not graded: the check of this problem did not finish (time limit or crash)",
    "kernel_died": "not graded: the kernel died during {where} (os._exit, crash or out of memory)",
    "kernel_stuck": "not graded: the kernel stopped responding in {where} and was stopped (an endless loop that "
                    "ignores interrupts?)",
    "total_time": "not graded: the submission used up its total time ({seconds:g} s)",
    "cell_raised": "code cell {index} raised {error}",
    "cell_time_limit": "code cell {index} was stopped after {seconds:g} s (time limit)",
    "output_dropped": "code cell {index}: output over {cap} characters was dropped",
    "unreadable": "could not read the file: {error}",
    "not_a_notebook": "not a readable notebook ({error}; its content is not quoted)",
    "unknown_set": "cannot tell which exercise set this is (no exercise_set metadata, no NN_ prefix)",
    "malformed_output": "not graded: the sandbox's output was malformed ({detail})",
    "sandbox_failed": "not graded: the sandbox did not start or ended abnormally ({detail})",
    "sandbox_timeout": "not graded: the sandbox exceeded its wall-clock limit ({seconds:g} s) and was killed",
    "grader_error": "grader error: {error}",
    "symlink": "not graded: the submission is a symbolic link or lies in a linked folder (links are never "
               "followed; hand in the notebook file itself)",
    "outside": "not graded: the submission is not a regular file inside the submissions folder",
    "too_big": "not graded: the file is larger than {mb} MB",
    "more_notebooks": "{n} notebooks for this set in the folder: graded the newest by modification time ({chosen}); "
                      "not graded: {others}",
    "lookalike": "the name {name!s} uses look-alike characters ({chars}) of another student's name: check the identity",
    "unsafe": "UNSAFE: graded WITHOUT a sandbox (--unsafe-no-sandbox): the submissions' code ran with the grader's "
              "rights, so these grades can be forged",
}

# The Chinese table (issue 16): the same keys; a key missing here falls back to English.
MESSAGES_ZH = {
    "status.correct": "正确",
    "status.incorrect": "不正确",
    "status.not attempted": "尚未作答",
    "status.received": "已收到",
    "status_end": "。",
    "placeholder": "{name} 仍是 `...`：请换成你的答案，再运行这个单元格。",
    "replace_placeholder": "请把 {names} 的 `...` 换成你的答案，再运行这个单元格。",
    "raised": "你的代码抛出了 {error}：{detail}",
    "received": "{names}：已记录。课堂版不会告诉你答案是否正确：交卷后统一评分。",
    "received_function": "{name} 不是可调用的函数。",
    "number_type": "{name} 应当是一个数，得到的是 {type} {value}",
    "number_shape": "{name} 应当是单个数，得到的是形状为 {shape} 的数组",
    "number_finite": "{name} 是 {value}：应当是一个有限的数",
    "too_large": "{name} = {value} 偏大。",
    "too_small": "{name} = {value} 偏小。",
    "too_large_expected": "{name} = {value} 偏大（应为 {expected}）。",
    "too_small_expected": "{name} = {value} 偏小（应为 {expected}）。",
    "int_type": "{name} 应当是精确的整数（请用 math.comb 或整数运算，不要用浮点数），得到的是 {type}",
    "choice_type": "{name} 应当是 {options} 之一（字符串），得到的是 {value}",
    "choice_unknown": "{name} = {value} 不在选项 {options} 之中。",
    "choice_wrong": "{name} = {value} 不是最好的选择。",
    "reason_short": "{name} 应当是一句完整的话（至少 {min_words} 个词或汉字词）。",
    "reason_keyword": "{name} 没有提到关键的理由（例如：{examples}）。",
    "array_type": "{name} 应当是数值数组，得到的是 {type}",
    "array_shape": "{name} 的形状是 {shape}，应为 {expected}。",
    "array_differs": "{name} 在下标 {index} 处第一次出现差异：{value}，应为 {expected}。",
    "function_type": "{name} 应当是一个函数，得到的是 {type}",
    "function_not_implemented": "{name} 仍然抛出 NotImplementedError。",
    "function_raised": "{call}{where} 抛出了 {error}：{detail}",
    "function_none": "{name} 返回 None：请写出函数体（替换 `...`）。",
    "function_returned": "{call}{where} 返回 {got}，应为 {expected}。",
    "function_should_raise": "{call} 应当抛出 ValueError（输入不合法），实际抛出 {error}",
    "function_should_raise_returned": "{call} 应当抛出 ValueError（输入不合法），却正常返回了。",
    "function_timeout": "{call} 在 {seconds:g} 秒内没有返回（超时）",
    "function_no_result": "{call}：没有结果（这个函数的评分在这次调用之前已停止）",
    "no_solution_classroom": "课堂版不含参考解答。",
    "hidden_case_number": "隐藏用例 {i}",
    "hidden_case_raised": "在{case}上，你的函数抛出了 {error}",
    "hidden_case_wrong": "在{case}上，你的函数返回了错误的值（{kind}）",
    "hidden_bad_input": "{name} 的第 {j} 个不合法输入",
    "array_differs_hidden": "{name} 在下标 {index} 处第一次出现差异。",
    "kind.type": "是 {type}，不是数值",
    "kind.shape": "形状 {shape} 不是应有的形状",
    "kind.finite": "不是有限的数",
    "kind.too_large": "偏大",
    "kind.too_small": "偏小",
    "kind.differs": "有的值偏大，有的值偏小",
    "forbidden": "请自己实现：能直接解出这道题的库函数（{call}）在你的函数运行隐藏用例时被禁用",
    "hint": "**提示（{name}）：** {text}",
    "solution": "**参考解答（{name}）：**\n\n```python\n{code}\n```",
    "missing": "{names} 没有定义：它的单元格被删除、运行出错，或在它所依赖的单元格之前运行",
    "hidden_test_failed": "隐藏测试 {i}：{failure}{message}",
    "not_graded_unreached": "未评分：这道题的检查没有完成（超时或崩溃）",
    "kernel_died": "未评分：内核在{where}时终止（os._exit、崩溃或内存不足）",
    "kernel_stuck": "未评分：内核在{where}时失去响应，已被停止（是否有不理会中断的死循环？）",
    "total_time": "未评分：这份作业用完了总时间（{seconds:g} 秒）",
    "cell_raised": "第 {index} 个代码单元格抛出了 {error}",
    "cell_time_limit": "第 {index} 个代码单元格运行 {seconds:g} 秒后被停止（超时）",
    "output_dropped": "第 {index} 个代码单元格：超过 {cap} 个字符的输出已被丢弃",
    "unreadable": "无法读取文件：{error}",
    "not_a_notebook": "不是可读取的 notebook（{error}；不引用其内容）",
    "unknown_set": "无法判断这是哪一套练习（没有 exercise_set 元数据，文件名也没有 NN_ 前缀）",
    "malformed_output": "未评分：沙箱的输出格式不正确（{detail}）",
    "sandbox_failed": "未评分：沙箱没有启动或异常结束（{detail}）",
    "sandbox_timeout": "未评分：沙箱超过了运行时间上限（{seconds:g} 秒），已被终止",
    "grader_error": "评分程序出错：{error}",
    "symlink": "未评分：提交的是符号链接或位于链接的文件夹中（评分程序从不跟随链接；请提交 notebook 文件本身）",
    "outside": "未评分：提交的不是提交文件夹中的普通文件",
    "too_big": "未评分：文件大于 {mb} MB",
    "more_notebooks": "文件夹中这一套练习有 {n} 个 notebook：评分的是修改时间最新的一个（{chosen}）；未评分：{others}",
    "lookalike": "名字 {name!s} 使用了与另一位学生名字形似的字符（{chars}）：请核对身份",
    "unsafe": "不安全：本次评分没有使用沙箱（--unsafe-no-sandbox）：作业代码以评分者的权限运行，成绩可以被伪造",
}

_LANGUAGE = {"en": MESSAGES, "zh": MESSAGES_ZH}


def set_language(code: str) -> None:
    """Switch the learner's language (``"en"`` or ``"zh"``): the same as :func:`evallib.i18n.set_language`."""
    from .i18n import set_language as _set

    if code not in _LANGUAGE:
        raise ValueError(f"code: no message catalog {code!r}; available: {', '.join(sorted(_LANGUAGE))}")
    _set(code)


def text(key: str, **fields) -> str:
    """The sentence ``key`` in the learner's language (:mod:`evallib.i18n`), formatted with ``fields``
    (English when the language's table has no such key)."""
    from .i18n import get_language

    template = _LANGUAGE.get(get_language(), MESSAGES).get(key) or MESSAGES[key]
    return template.format(**fields)
