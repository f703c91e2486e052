"""Common places, times of day and manners named in English, Japanese, Chinese and Korean.

A caption is written in one language (:mod:`studio.core.sentence`). A turn may name its place,
its time or its manner in another one than its motion ("Motion: 산책; Background: park",
"Motion: run; Background: 公園", "Motion: 手を振る; Adverb: slowly"): the caption then names
what it knows here in the caption's language ("Qiqi는 공원에서 산책한다.", "Qiqi runs in the
park.", "ゆっくり手を振る"), and keeps any other word as it was written (a place's own name,
"Central Park", reads well in any of them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlaceWords:
    """One place as each language names it. ``traditional`` is the Chinese name in Traditional
    characters where it differs from the Simplified one (``chinese``)."""

    english: str
    japanese: str
    chinese: str
    korean: str
    traditional: str = ""


PLACES: tuple[PlaceWords, ...] = (
    PlaceWords("park", "公園", "公园", "공원", "公園"),
    PlaceWords("town", "町", "小镇", "마을", "小鎮"),
    PlaceWords("city", "街", "城市", "도시"),
    PlaceWords("village", "村", "村庄", "시골 마을", "村莊"),
    PlaceWords("street", "通り", "街道", "거리"),
    PlaceWords("road", "道", "路上", "길"),
    PlaceWords("school", "学校", "学校", "학교", "學校"),
    PlaceWords("classroom", "教室", "教室", "교실"),
    PlaceWords("forest", "森", "森林", "숲"),
    PlaceWords("woods", "林", "树林", "숲속", "樹林"),
    PlaceWords("bedroom", "寝室", "卧室", "침실", "臥室"),
    PlaceWords("room", "部屋", "房间", "방", "房間"),
    PlaceWords("house", "家", "家里", "집", "家裡"),
    PlaceWords("station", "駅", "车站", "역", "車站"),
    PlaceWords("garden", "庭", "花园", "정원", "花園"),
    PlaceWords("cafe", "カフェ", "咖啡馆", "카페", "咖啡館"),
    PlaceWords("kitchen", "台所", "厨房", "부엌", "廚房"),
    PlaceWords("library", "図書館", "图书馆", "도서관", "圖書館"),
    PlaceWords("bakery", "パン屋", "面包店", "빵집", "麵包店"),
    PlaceWords("shop", "店", "商店", "가게"),
    PlaceWords("market", "市場", "市场", "시장", "市場"),
    PlaceWords("river", "川", "河边", "강", "河邊"),
    PlaceWords("lake", "湖", "湖边", "호수", "湖邊"),
    PlaceWords("sea", "海", "海上", "바다"),
    PlaceWords("beach", "浜辺", "海滩", "해변", "海灘"),
    PlaceWords("harbor", "港", "港口", "항구"),
    PlaceWords("harbour", "港", "港口", "항구"),
    PlaceWords("mountain", "山", "山上", "산"),
    PlaceWords("hill", "丘", "山丘", "언덕"),
    PlaceWords("countryside", "田舎", "乡下", "시골", "鄉下"),
    PlaceWords("field", "野原", "田野", "들판"),
    PlaceWords("meadow", "草原", "草原", "초원"),
    PlaceWords("grass", "草むら", "草地", "풀밭"),
    PlaceWords("sky", "空", "天空", "하늘"),
    PlaceWords("rooftop", "屋上", "屋顶", "옥상", "屋頂"),
    PlaceWords("roof", "屋根", "屋顶", "지붕", "屋頂"),
    PlaceWords("bridge", "橋", "桥上", "다리", "橋上"),
    PlaceWords("shrine", "神社", "神社", "신사"),
    PlaceWords("temple", "寺", "寺庙", "절", "寺廟"),
    PlaceWords("playground", "遊び場", "游乐场", "놀이터", "遊樂場"),
    PlaceWords("hospital", "病院", "医院", "병원", "醫院"),
    PlaceWords("office", "事務所", "办公室", "사무실", "辦公室"),
    PlaceWords("castle", "城", "城堡", "성"),
)
"""The places a caption names in another language: the sketch world's own and a few common ones."""

_ARTICLES = ("the ", "a ", "an ")


def _english_key(place: str) -> str:
    """An English place as looked up: lower case, single spaces, without an article ("The Park" -> park)."""
    key = " ".join(place.lower().split())
    for article in _ARTICLES:
        if key.startswith(article):
            return key[len(article):]
    return key


_BY_ENGLISH = {words.english: words for words in PLACES}
_BY_WRITTEN: dict[str, PlaceWords] = {}
for _words in PLACES:
    for _written in (_words.japanese, _words.chinese, _words.traditional, _words.korean):
        if _written:
            _BY_WRITTEN.setdefault(_written, _words)
for _words in PLACES:  # the bare nouns a Chinese author writes ("河", "山") as well as the sentence's ("河边")
    for _written in (_words.chinese, _words.traditional):
        _BY_WRITTEN.setdefault(_written.removesuffix("边").removesuffix("邊").removesuffix("上"), _words)


def place_in(language: str, place: str, *, traditional: bool = False) -> str:
    """``place``, an English one, as ``language`` ("ja", "zh", "ko") names it ("park" -> 公園,
    公园, 공원; ``traditional``: in Traditional Chinese characters); "" for a place not known here."""
    words = _BY_ENGLISH.get(_english_key(place))
    if words is None:
        return ""
    if language == "ja":
        return words.japanese
    if language == "ko":
        return words.korean
    if language == "zh":
        return (words.traditional or words.chinese) if traditional else words.chinese
    return words.english if language == "en" else ""


def english_place(place: str) -> str:
    """``place``, written in Japanese, Chinese or Korean, as English names it (公園, 公园, 공원 ->
    park); "" for a place not known here."""
    words = _BY_WRITTEN.get(" ".join(place.split()))
    return words.english if words is not None else ""


TIMES_IN_ENGLISH: dict[str, str] = {
    "昼": "day", "朝": "morning", "正午": "noon", "午後": "afternoon", "夕暮れ": "dusk", "夕方": "evening",
    "黄昏": "twilight", "明け方": "dawn", "日の出": "sunrise", "夜": "night", "真夜中": "midnight",
    "白天": "day", "早上": "morning", "中午": "noon", "下午": "afternoon", "日落": "sunset", "傍晚": "evening",
    "黎明": "dawn", "日出": "sunrise", "晚上": "night", "夜里": "night", "夜裡": "night", "半夜": "midnight",
    "낮": "day", "아침": "morning", "정오": "noon", "오후": "afternoon", "해 질 녘": "dusk", "저녁": "evening",
    "황혼": "twilight", "새벽": "dawn", "해돋이": "sunrise", "밤": "night", "한밤중": "midnight",
}
"""Times of day written in Japanese, Chinese or Korean, as the English words an English
caption says them with ("夜", "晚上", "밤" -> night: "at night")."""


ADVERBS: dict[str, tuple[str, str, str]] = {
    "slowly": ("ゆっくり", "慢慢地", "천천히"), "gently": ("そっと", "轻轻地", "살며시"),
    "softly": ("優しく", "温柔地", "부드럽게"), "lazily": ("だらだらと", "懒洋洋地", "느긋하게"),
    "sleepily": ("眠そうに", "睡眼惺忪地", "졸린 듯이"), "tiredly": ("疲れた様子で", "疲惫地", "지친 듯이"),
    "calmly": ("落ち着いて", "平静地", "차분하게"), "carefully": ("慎重に", "小心地", "조심스럽게"),
    "quietly": ("静かに", "安静地", "조용히"), "sadly": ("悲しそうに", "难过地", "슬프게"),
    "shyly": ("恥ずかしそうに", "害羞地", "수줍게"), "nervously": ("緊張して", "紧张地", "긴장해서"),
    "happily": ("楽しそうに", "开心地", "즐겁게"), "cheerfully": ("元気に", "愉快地", "명랑하게"),
    "joyfully": ("嬉しそうに", "欢快地", "기쁘게"), "playfully": ("ふざけて", "调皮地", "장난스럽게"),
    "proudly": ("誇らしげに", "骄傲地", "자랑스럽게"), "gracefully": ("優雅に", "优雅地", "우아하게"),
    "quickly": ("素早く", "快速地", "빠르게"), "fast": ("速く", "飞快地", "빨리"),
    "eagerly": ("熱心に", "热切地", "열심히"), "excitedly": ("興奮して", "兴奋地", "신나게"),
    "angrily": ("怒って", "生气地", "화가 나서"), "hurriedly": ("急いで", "匆忙地", "서둘러"),
    "energetically": ("元気いっぱいに", "精力充沛地", "힘차게"), "wildly": ("激しく", "疯狂地", "거칠게"),
    "furiously": ("猛烈に", "狂怒地", "맹렬하게"), "powerfully": ("力強く", "有力地", "힘있게"),
}
"""Manners (the sketch world's adverbs, most used first) as Japanese, Chinese (Simplified) and
Korean say them before a verb."""

_TRADITIONAL = str.maketrans("轻温懒惫静难紧张开欢调骄优飞热兴奋气匆疯充", "輕溫懶憊靜難緊張開歡調驕優飛熱興奮氣匆瘋充")
"""The Simplified characters of :data:`ADVERBS` in their Traditional forms."""
_LANGUAGE_INDEX = {"ja": 0, "zh": 1, "ko": 2}


def adverb_in(language: str, adverb: str, *, traditional: bool = False) -> str:
    """An English ``adverb`` as ``language`` ("ja", "zh", "ko") says it ("slowly" -> ゆっくり,
    慢慢地, 천천히; "very slowly" -> とてもゆっくり); "" for one not known here."""
    words = adverb.lower().split()
    very = words[:1] in (["very"], ["really"], ["so"], ["super"]) and len(words) > 1
    said = ADVERBS.get(" ".join(words[1:] if very else words))
    if said is None or language not in _LANGUAGE_INDEX:
        return ""
    index = _LANGUAGE_INDEX[language]
    word = said[index]
    if very and word[:1] != word[1:2]:  # 慢慢地, 轻轻地 are doubled for stress already: no 非常 before them
        word = ("とても", "非常", "아주 ")[index] + word
    return word.translate(_TRADITIONAL) if language == "zh" and traditional else word


_ADVERBS_IN_ENGLISH = {word: english for english, said in ADVERBS.items()
                       for word in (*said, said[1].translate(_TRADITIONAL))}


def english_adverb(adverb: str) -> str:
    """A manner written in Japanese, Chinese or Korean as English says it (ゆっくり, 慢慢地,
    천천히 -> slowly); "" for one not known here."""
    return _ADVERBS_IN_ENGLISH.get(" ".join(adverb.split()), "")
